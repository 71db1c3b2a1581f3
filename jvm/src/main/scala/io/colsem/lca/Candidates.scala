package io.colsem.lca

import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.TreePattern.UNRESOLVED_ATTRIBUTE

import io.colsem.vocabulary.LateralAliasCandidate

/** The [[LateralAliasCandidate]] marks in a plan: whether an expression holds one, and the plain
 *  names again where colsem leaves a list to Spark's native support. */
private[lca] object Candidates {

  def hasCandidate(e: Expression): Boolean =
    e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(_.isInstanceOf[LateralAliasCandidate])

  /** `plan` with every candidate its plain name again, for Spark's native support. */
  def unmark(plan: LogicalPlan): LogicalPlan = plan.mapExpressions(unmarkExpression)

  def unmarkExpression(e: Expression): Expression = e.transform {
    case UnresolvedAlias(c: LateralAliasCandidate, None) => c.attribute
    case c: LateralAliasCandidate => c.attribute
  }
}
