package io.colsem.lca

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

  /** Whether some operator's own expressions (a subquery's plan included) satisfy `p`, looked for
   *  only in the expressions that hold an unresolved name. */
  def existsInExpressions(plan: LogicalPlan)(p: PartialFunction[Any, Boolean]): Boolean =
    plan.containsPattern(UNRESOLVED_ATTRIBUTE) && (
      plan.expressions.exists(e =>
        e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(p.applyOrElse(_, (_: Any) => false))) ||
        plan.children.exists(existsInExpressions(_)(p)))
}
