package io.colsem.respond

import org.apache.spark.sql.catalyst.expressions.{
  Expression, FunctionTableSubqueryArgumentExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project, SubqueryAlias}

import io.colsem.errors.ColsemErrors
import io.colsem.shims.SparkShims
import io.colsem.status.TableFunctions

/**
 * `SELECT * FROM colsem_with_presence(TABLE(q))`: the rows of the query, view or table `q`, its
 * columns first, then the present columns [[PresenceColumns]] adds, one per column that holds a
 * MAP or VARIANT lookup, named `__colsem_present_<i>` after the ordinal `i` of the column it is
 * for. `colsem.respond` reads it through SQL, so a Spark Connect client, which cannot reach the
 * driver JVM, tells MISSING from NULL exactly as a classic one does.
 *
 * Spark resolves a TABLE argument before it calls a table function's builder (ResolveFunctions
 * waits until every argument is resolved), so the builder gets `q`'s analyzed plan:
 * {{{
 *   SELECT * FROM colsem_with_presence(TABLE(v))      v: SELECT id, m['age'] AS age FROM docs
 *
 *   'Project [*]
 *   +- 'UnresolvedTableValuedFunction colsem_with_presence
 *        FunctionTableSubqueryArgumentExpression
 *          SubqueryAlias v
 *          +- View v [id, age]
 *             +- Project [cast(id) AS id, cast(age) AS age]
 *                +- Project [id, m[age] AS age]
 *                   +- docs
 *   =>
 *   Project [id, age, __colsem_present_1]
 *   +- SubqueryAlias colsem_with_presence
 *      +- Project [id, age, __colsem_present_age AS __colsem_present_1]
 *         +- SubqueryAlias v
 *            +- View v [id, age, __colsem_present_age]
 *               +- Project [cast(id) AS id, cast(age) AS age, __colsem_present_age]
 *                  +- Project [id, m[age] AS age,
 *                     |        coalesce(array_contains(map_keys(m), age), false)
 *                     |          AS __colsem_present_age]
 *                     +- docs
 * }}}
 * Golden: respond.sql: SELECT * FROM colsem_with_presence(TABLE(presence_v))
 * Without any lookup the query still gets a Project of its columns on top: `*` over a query's
 * result keeps every column, where over a table, view or DataFrame leaf the session's star
 * strategies could leave some out.
 */
object PresenceTableFunction {
  val Name = "colsem_with_presence"

  val description: TableFunctions.Description = TableFunctions.describe(
    this,
    Name,
    "(TABLE(query)) - The rows of the query with, after its columns, a boolean " +
      s"${PresenceColumns.ColumnPrefix}<i> for each column i whose value is a MAP or VARIANT " +
      "lookup: false where the key or path is absent (MISSING), true where present " +
      "(a value or NULL).",
    s"SELECT * FROM $Name(TABLE(SELECT m['age'] AS age FROM docs));")(args =>
    withPresence(queryOf(args)))

  private def queryOf(args: Seq[Expression]): LogicalPlan = args match {
    case Seq(t: FunctionTableSubqueryArgumentExpression)
        if t.plan.resolved && t.outerAttrs.isEmpty && SparkShims.isPlainTableArgument(t) =>
      t.plan
    case _ => throw ColsemErrors.withPresenceArguments(args.size)
  }

  private def withPresence(query: LogicalPlan): LogicalPlan = {
    val (withFlags, _) = PresenceColumns.addTo(query)
    SubqueryAlias(Name, if (withFlags eq query) Project(query.output, query) else withFlags)
  }
}
