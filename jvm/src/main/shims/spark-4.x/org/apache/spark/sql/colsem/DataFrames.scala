package org.apache.spark.sql.colsem

import org.apache.spark.sql.{DataFrame, Dataset, Row}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.classic

/**
 * A DataFrame from a plan colsem built out of an analyzed one. `Dataset.ofRows` and
 * `LogicalPlan.setAnalyzed` are `private[sql]`, hence this package.
 */
object DataFrames {

  def analyzedPlan(df: Dataset[Row]): LogicalPlan = classicOf(df).queryExecution.analyzed

  /** `plan` is made of analyzed nodes plus colsem's own resolved ones: marked analyzed, the
   *  analyzer's rules skip it instead of resolving it again; CheckAnalysis still checks it. */
  def ofAnalyzedPlan(like: Dataset[Row], plan: LogicalPlan): DataFrame = {
    plan.setAnalyzed()
    classic.Dataset.ofRows(classicOf(like).sparkSession, plan)
  }

  private def classicOf(df: Dataset[Row]): classic.Dataset[Row] = df match {
    case c: classic.Dataset[Row @unchecked] => c
    case other => throw new IllegalArgumentException(
      s"colsem needs a classic (non-Connect) Dataset here, got ${other.getClass.getName}")
  }
}
