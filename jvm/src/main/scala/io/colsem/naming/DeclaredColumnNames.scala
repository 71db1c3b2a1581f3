package io.colsem.naming

import org.apache.spark.sql.catalyst.expressions.{AttributeReference, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Distinct, Filter, GlobalLimit, LocalLimit, LogicalPlan, Project, Sort, Union, WithCTE}
import org.apache.spark.sql.catalyst.rules.Rule

import io.colsem.ValidateColsemConf
import io.colsem.shims.SparkShims

/**
 * Resolution rule for the `sqlite` dialect: a bare column of the outermost SELECT is named as the
 * column is declared, not as the query wrote it (`SELECT ID FROM t` -> `id` when `t` declares
 * `id`), as SQLite names result columns. Inner SELECTs keep the name as written, as in SQLite
 * (whose subquery columns are named by their text), so no outer reference can be affected: only
 * the outermost list is renamed, after it is resolved, keeping each attribute's id.
 */
object DeclaredColumnNames extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    // SET and RESET must work whatever the dialect's value (they are how a bad one is fixed).
    if (!plan.resolved || ValidateColsemConf.changesConf(plan) || SparkShims.resolvingSubquery ||
        NamingDialect.of(conf) != NamingDialect.SQLite) plan
    else outermost(plan)

  /** The outermost SELECT list: below ORDER BY, LIMIT, DISTINCT, HAVING, WITH, in a set
   *  operation's first branch. */
  private def outermost(plan: LogicalPlan): LogicalPlan = plan match {
    case p @ Project(items, child) => renamed(items, child).map(r => p.copy(projectList = r)).getOrElse(p)
    case a: Aggregate =>
      renamed(a.aggregateExpressions, a.child).map(r => a.copy(aggregateExpressions = r)).getOrElse(a)
    case s: Sort => below(s, s.child)
    case l: GlobalLimit => below(l, l.child)
    case l: LocalLimit => below(l, l.child)
    case d: Distinct => below(d, d.child)
    case f: Filter => below(f, f.child)
    case w: WithCTE => below(w, w.plan)
    case u: Union if u.children.nonEmpty =>
      val first = outermost(u.children.head)
      if (first eq u.children.head) u else u.withNewChildren(first +: u.children.tail)
    case other => other
  }

  private def below(parent: LogicalPlan, child: LogicalPlan): LogicalPlan = {
    val updated = outermost(child)
    if (updated eq child) parent
    else parent.mapChildren(c => if (c eq child) updated else c)
  }

  private def renamed(items: Seq[NamedExpression], input: LogicalPlan): Option[Seq[NamedExpression]] = {
    val declared = input.output.map(a => a.exprId -> a.name).toMap
    var changed = false
    val result = items.map {
      case a: AttributeReference => declared.get(a.exprId) match {
        case Some(name) if name != a.name && name.equalsIgnoreCase(a.name) =>
          changed = true
          a.withName(name)
        case _ => a
      }
      case other => other
    }
    if (changed) Some(result) else None
  }
}
