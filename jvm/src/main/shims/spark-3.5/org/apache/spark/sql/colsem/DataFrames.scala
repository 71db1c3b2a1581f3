package org.apache.spark.sql.colsem

import org.apache.spark.sql.{DataFrame, Dataset, Row}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * A DataFrame from a plan colsem built out of an analyzed one (Spark 3.5: every Dataset is a
 * classic one). `Dataset.ofRows` and `LogicalPlan.setAnalyzed` are `private[sql]`, hence this
 * package.
 */
object DataFrames {

  def analyzedPlan(df: Dataset[Row]): LogicalPlan = df.queryExecution.analyzed

  /** `plan` is made of analyzed nodes plus colsem's own resolved ones: marked analyzed, the
   *  analyzer's rules skip it instead of resolving it again; CheckAnalysis still checks it. */
  def ofAnalyzedPlan(like: Dataset[Row], plan: LogicalPlan): DataFrame = {
    plan.setAnalyzed()
    Dataset.ofRows(like.sparkSession, plan)
  }
}
