package io.colsem.shims

import java.net.URL

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * The part of [[SparkShims]] written once for every line: each method reads the same on every
 * line and delegates what differs to a per-line object (UnresolvedFunctions)
 * or to the code colsem keeps inside Spark's packages.
 */
trait SharedShims {

  /** Spark's UNRESOLVED_COLUMN error for `attribute` in `operator`, as CheckAnalysis raises it. */
  def unresolvedColumnError(operator: LogicalPlan, attribute: Attribute): AnalysisException =
    org.apache.spark.sql.colsem.SparkAnalysisErrors.unresolvedColumn(operator, attribute)
      .asInstanceOf[AnalysisException]

  /** Spark's AMBIGUOUS_LATERAL_COLUMN_ALIAS error for `name` with `matches` definitions. */
  def ambiguousLateralAliasError(name: String, matches: Int): AnalysisException =
    org.apache.spark.sql.colsem.SparkAnalysisErrors.ambiguousLateralColumnAlias(name, matches)
      .asInstanceOf[AnalysisException]

  /** The text of Spark's message for one of its error classes. */
  def sparkMessageText(errorClass: String, parameters: Map[String, String]): String =
    org.apache.spark.colsem.ErrorConditionRegistry.sparkMessageText(errorClass, parameters)

  /** See [[org.apache.spark.colsem.ErrorConditionRegistry]]. */
  def registerErrorConditions(conditions: URL): Unit =
    org.apache.spark.colsem.ErrorConditionRegistry.register(conditions)

  /** Whether a function call says IGNORE NULLS. */
  def ignoresNulls(u: UnresolvedFunction): Boolean = UnresolvedFunctions.ignoresNulls(u)
}
