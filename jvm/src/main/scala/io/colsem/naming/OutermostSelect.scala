package io.colsem.naming

import org.apache.spark.sql.catalyst.analysis.GetViewColumnByNameAndOrdinal
import org.apache.spark.sql.catalyst.expressions.NamedExpression
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, AlterViewAs, CreateTableAsSelect, CreateView, Distinct, Except, Intersect, Filter,
  GlobalLimit, LocalLimit, LogicalPlan, Project, ReplaceTableAsSelect, Sort, Union, WithCTE
}
import org.apache.spark.sql.execution.command.CreateViewCommand

/**
 * The SELECT list that names a query's result columns: the outermost one, below ORDER BY, LIMIT,
 * DISTINCT, HAVING and WITH, in a set operation's first branch (UNION, EXCEPT, INTERSECT).
 * [[mapStored]] finds it in the query of a statement that stores the names as columns (CREATE VIEW,
 * ALTER VIEW ... AS, CREATE/REPLACE TABLE ... AS SELECT). The names of
 * `SELECT s1 + 1 FROM t1 UNION ALL SELECT id * 2 FROM t2 ORDER BY 1` are the first branch's:
 * {{{
 *   Sort [(s1 + 1) ASC]                       <- ORDER BY 1
 *   +- Union
 *      :- Project [(s1 + 1) AS `(s1 + 1)`]    <- the list
 *      :  +- SubqueryAlias t1
 *      +- Project [(id * 2) AS `(id * 2)`]
 *         +- SubqueryAlias t2
 * }}}
 * Golden: naming_canonical.sql: SELECT s1 + 1 FROM t1 UNION ALL SELECT id * 2 FROM t2
 */
private[naming] object OutermostSelect {

  type ListUpdate = (Seq[NamedExpression], LogicalPlan) => Option[Seq[NamedExpression]]

  /** `plan` with `f` applied to its outermost SELECT list (items and their input). */
  def map(plan: LogicalPlan)(f: ListUpdate): LogicalPlan = plan match {
    case p @ Project(items, child) => f(items, child).map(r => p.copy(projectList = r)).getOrElse(p)
    case a: Aggregate =>
      f(a.aggregateExpressions, a.child).map(r => a.copy(aggregateExpressions = r)).getOrElse(a)
    case s: Sort => below(s, s.child, f)
    case l: GlobalLimit => below(l, l.child, f)
    case l: LocalLimit => below(l, l.child, f)
    case d: Distinct => below(d, d.child, f)
    case h: Filter => below(h, h.child, f)
    case w: WithCTE => below(w, w.plan, f)
    case u: Union if u.children.nonEmpty => below(u, u.children.head, f)
    case e: Except => below(e, e.left, f)
    case i: Intersect => below(i, i.left, f)
    case other => other
  }

  /** `plan` with `f` applied to the outermost SELECT list of the query it stores, if any. */
  def mapStored(plan: LogicalPlan)(f: ListUpdate): LogicalPlan = storedQuery(plan) match {
    case Some(query) => below(plan, query, f)
    case None => plan
  }

  /**
   * `plan` with `f` applied to the outermost SELECT list of a view's stored query, read by a
   * statement: Spark binds the view's stored column names to the query's output through a
   * Project of GetViewColumnByNameAndOrdinal above it (absent under schema evolution).
   */
  def mapViewQuery(plan: LogicalPlan)(f: ListUpdate): LogicalPlan = plan match {
    case p @ Project(_, child) if bindsViewColumns(p) => below(p, child, f)
    case other => map(other)(f)
  }

  /** Whether `plan` is the Project by which Spark binds a view's stored columns to its query. */
  def bindsViewColumns(plan: LogicalPlan): Boolean = plan match {
    case Project(items, _) =>
      items.nonEmpty && items.forall(_.exists(_.isInstanceOf[GetViewColumnByNameAndOrdinal]))
    case _ => false
  }

  private def storedQuery(plan: LogicalPlan): Option[LogicalPlan] = plan match {
    case c: CreateViewCommand => Some(c.plan)
    case c: CreateView => Some(c.query)
    case a: AlterViewAs => Some(a.query)
    case c: CreateTableAsSelect => Some(c.query)
    case r: ReplaceTableAsSelect => Some(r.query)
    case _ => None
  }

  private def below(parent: LogicalPlan, child: LogicalPlan, f: ListUpdate): LogicalPlan = {
    val updated = map(child)(f)
    if (updated eq child) parent
    else parent.mapChildren(c => if (c eq child) updated else c)
  }
}
