package io.colsem.lca

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.TreePattern.UNRESOLVED_ATTRIBUTE

/** The operators of a plan that a name may still be unresolved in: the rules that report such
 *  names visit these only, so a resolved subtree (most of a plan after the first iteration, a
 *  whole plan after analysis) costs nothing. A node's pattern bits include its expressions'
 *  subqueries, so no unresolved name is missed. */
private[lca] object UnresolvedOperators {

  /** `f` on each operator whose subtree holds an unresolved name, children first (`foreachUp`). */
  def foreachUp(plan: LogicalPlan)(f: LogicalPlan => Unit): Unit =
    if (plan.containsPattern(UNRESOLVED_ATTRIBUTE)) {
      plan.children.foreach(foreachUp(_)(f))
      f(plan)
    }

  /** Whether an expression node of some operator (its own expression trees, as the operator rules
   *  see them; not the plans of its subqueries) satisfies `p`, looked for only where a name is
   *  still unresolved. */
  def existsInExpressions(plan: LogicalPlan)(p: Expression => Boolean): Boolean =
    plan.containsPattern(UNRESOLVED_ATTRIBUTE) && (
      plan.expressions.exists(e => e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(p)) ||
        plan.children.exists(existsInExpressions(_)(p)))
}
