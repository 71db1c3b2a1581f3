package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.{UnresolvedRelation, UnresolvedStar}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.catalyst.trees.{CurrentOrigin, TreeNodeTag}
import org.apache.spark.sql.execution.command.CreateViewCommand

import io.colsem.shims.CteDefinitions

/**
 * `TABLE t`, and a pipe query whose columns come from `FROM t` with no `|> SELECT`, read as
 * `SELECT * FROM t` (the SQL standard defines `TABLE t` so): a SQL-text query whose output comes
 * straight from a table reference, through operators that pass its columns on (`|> WHERE`, `|> AS`,
 * `|> ORDER BY`, `|> LIMIT`, `|> TABLESAMPLE`, joins of such), gets a `*` on top, tagged
 * [[Added]], which [[MarkColumnHidingStars]] then wraps as any other. Where it hides nothing,
 * [[ResolveColumnHidingStars]] takes it away again: the analyzed plan is vanilla's.
 * {{{
 *   FROM events |> WHERE id > 0
 *
 *   'Filter ('id > 0)                  'Project [*]                    [added]
 *   +- 'UnresolvedRelation [events]  => +- 'Filter ('id > 0)
 *                                         +- 'UnresolvedRelation [events]
 * }}}
 * Golden: none (golden files run with star.exclude off; what TABLE t shows is a session
 *   setting's): tests/test_star.py::test_table_and_pipe_from_hide_as_select_star
 *
 * The query of CREATE TABLE / REPLACE TABLE / CREATE VIEW / CACHE TABLE ... AS and each WITH
 * definition are such queries too; an INSERT's is not (every star of an INSERT keeps every
 * column, [[MarkColumnHidingStars]]).
 */
object TableStatements {

  val Added: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.star.addedStar")

  def isAdded(plan: LogicalPlan): Boolean = plan.getTagValue(Added).isDefined

  /** A statement parsed from SQL text (a DataFrame's `spark.table(t)` is every column). The
   *  WithCTE that CTESubstitution puts on top has no origin: its query's says. */
  def fromSqlText(plan: LogicalPlan): Boolean = plan match {
    case w: WithCTE => fromSqlText(w.plan)
    case other => other.origin.sqlText.isDefined
  }

  /** `plan` with a `*` over each query of it that comes straight from a table reference. */
  def addStars(plan: LogicalPlan): LogicalPlan = plan match {
    case w: UnresolvedWith =>
      CteDefinitions.map(w.copy(child = addStars(w.child)))(d => d.copy(child = addStars(d.child)))
    case w: WithCTE =>
      // Spark's CTESubstitution (before the Hints batch) made the WITH clause this.
      w.copy(
        plan = addStars(w.plan),
        cteDefs = w.cteDefs.map(d => d.copy(child = addStars(d.child))))
    case c: CreateTableAsSelect => c.copy(query = addStars(c.query))
    case r: ReplaceTableAsSelect => r.copy(query = addStars(r.query))
    case v: CreateView => v.copy(query = addStars(v.query))
    case v: CreateViewCommand => v.copy(plan = addStars(v.plan))
    case c: CacheTableAsSelect => c.copy(plan = addStars(c.plan))
    case q if comesFromTable(q) =>
      val star = CurrentOrigin.withOrigin(q.origin)(Project(Seq(UnresolvedStar(None)), q))
      star.setTagValue(Added, ())
      star
    case other => other
  }

  /** Whether every column of `plan` is a table reference's, passed on. */
  private def comesFromTable(plan: LogicalPlan): Boolean = plan match {
    case _: UnresolvedRelation => true
    case j: Join => comesFromTable(j.left) && comesFromTable(j.right)
    case _: Filter | _: Sort | _: GlobalLimit | _: LocalLimit | _: Offset | _: Sample |
        _: SubqueryAlias | _: Distinct =>
      plan.children.forall(comesFromTable)
    // The marker Spark 4's parser leaves between pipe operators (no such class on 3.5, which has
    // no pipe syntax: compared by name, not type, so this file builds on every line).
    case u: UnaryNode if u.nodeName == "PipeOperator" => comesFromTable(u.child)
    case _ => false
  }
}
