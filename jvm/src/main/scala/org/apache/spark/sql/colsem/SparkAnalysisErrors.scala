package org.apache.spark.sql.colsem

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.util.StringUtils
import org.apache.spark.sql.errors.QueryCompilationErrors

/**
 * Spark's own analysis errors, built exactly as Spark builds them, so colsem can add to one (a
 * hint) without changing its class or parameters. `QueryCompilationErrors` is `private[sql]`, hence
 * this package.
 */
object SparkAnalysisErrors {

  /** The UNRESOLVED_COLUMN error CheckAnalysis raises for `attribute` in `operator`. */
  def unresolvedColumn(operator: LogicalPlan, attribute: Attribute): Throwable = {
    val missing = attribute.sql
    val candidates = operator.inputSet.toSeq.map(a => a.qualifier :+ a.name)
    QueryCompilationErrors.unresolvedAttributeError(
      "UNRESOLVED_COLUMN",
      missing,
      StringUtils.orderSuggestedIdentifiersBySimilarity(missing, candidates),
      attribute.origin)
  }

  /** The AMBIGUOUS_LATERAL_COLUMN_ALIAS error Spark's native support raises for `name` (the
   *  reference as written) when `matches` earlier items define it. */
  def ambiguousLateralColumnAlias(name: String, matches: Int): Throwable =
    QueryCompilationErrors.ambiguousLateralColumnAliasError(name, matches)
}
