package io.colsem.naming

import org.apache.spark.sql.catalyst.expressions.{AttributeReference, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

import io.colsem.vocabulary.UserQueries

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
    if (NamingDialect.of(conf) != NamingDialect.SQLite || !plan.resolved ||
        UserQueries.changesConf(plan) || UserQueries.resolvingSubquery) plan
    else OutermostSelect.map(plan)(renamed)

  private def renamed(
      items: Seq[NamedExpression],
      input: LogicalPlan): Option[Seq[NamedExpression]] = {
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
