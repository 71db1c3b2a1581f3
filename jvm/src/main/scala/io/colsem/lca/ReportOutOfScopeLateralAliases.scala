package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, Expression, NamedExpression, SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreePattern.{PLAN_EXPRESSION, UNRESOLVED_ATTRIBUTE}

import io.colsem.errors.ColsemErrors
import io.colsem.settings.{ColsemConf, LateralAliasScope}
import io.colsem.shims.SparkShims
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * Post-hoc rule that never changes a plan: a name that means a select-list alias only in a scope
 * `spark.colsem.lateralAlias.extraScopes` leaves out (the WHERE below the list, a subquery of a
 * later item) fails with the UNRESOLVED_COLUMN error vanilla Spark raises for it (same class,
 * SQLSTATE, parameters and position) plus a hint naming the setting. Raised only where vanilla's
 * CheckAnalysis would fail first on that very name, and only when [[WhereAliases]] or
 * [[SubqueryAliases]] would read the alias with the scope on.
 */
class ReportOutOfScopeLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {
  import ReportOutOfScopeLateralAliases._

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsPattern(UNRESOLVED_ATTRIBUTE) || !LateralAliasConf.enabled(conf)) return plan
    val scopes = LateralAliasConf.extraScopes(conf)
    val where = !scopes.contains(LateralAliasScope.Where)
    val subqueries = !scopes.contains(LateralAliasScope.Subquery)
    if (where || subqueries) {
      // The WHERE below a list fails before the list's subqueries, as in CheckAnalysis.
      UnresolvedOperators.foreachUp(plan) { node =>
        node match {
          case Project(items, f: Filter) if where => checkWhere(items, f)
          case a: Aggregate if where && a.child.isInstanceOf[Filter] =>
            checkWhere(a.aggregateExpressions, a.child.asInstanceOf[Filter])
          case _ =>
        }
        node match {
          case p: Project if subqueries && p.child.resolved && p.containsPattern(PLAN_EXPRESSION) =>
            checkSubqueries(p, p.projectList, p.child)
          case a: Aggregate
              if subqueries && a.child.resolved && AggregateSubqueries.groupingLetsSubqueriesUp(
                a) &&
                a.containsPattern(PLAN_EXPRESSION) =>
            checkSubqueries(a, a.aggregateExpressions, a.child)
          case _ =>
        }
      }
    }
    plan
  }

  /** The first name vanilla would find unresolved in the WHERE below a list, if it is in the
   *  condition itself (not inside a subquery of it, whose plan Spark may not have resolved yet:
   *  there no alias is read in any scope) and means an alias of the list. */
  private def checkWhere(items: Seq[NamedExpression], f: Filter): Unit =
    if (!f.condition.resolved && f.child.resolved) firstUnresolved(f, f.condition).foreach {
      case (operator, u: UnresolvedAttribute)
          if (operator eq f) && WhereAliases.meanings(
            session,
            conf.resolver,
            items,
            f,
            u).nonEmpty =>
        throw outOfScope(f, u, LateralAliasScope.Where)
      case _ =>
    }

  /** The first name vanilla would find unresolved in the list (of `p`, over `input`), if it is
   *  inside a subquery of an item and means an earlier item's alias (as [[SubqueryAliases]] and,
   *  in an aggregate list, [[AggregateSubqueries]] read one). */
  private def checkSubqueries(
      p: LogicalPlan,
      list: Seq[NamedExpression],
      input: LogicalPlan): Unit =
    if (list.exists(SubqueryAliases.hasUnresolvedSubquery)) {
      val items = list.toIndexedSeq
      items.indices.iterator.map(i => i -> firstUnresolved(p, items(i)))
        .collectFirst { case (i, Some(found)) => i -> found }
        .foreach {
          case (i, (operator, u: UnresolvedAttribute))
              if (operator ne p) && operator.childrenResolved &&
                SubqueryAliases.hasUnresolvedSubquery(items(i)) &&
                SubqueryAliases.meanings(
                  session,
                  conf.resolver,
                  items,
                  i,
                  u,
                  operator.children :+ input).nonEmpty =>
            throw outOfScope(operator, u, LateralAliasScope.Subquery)
          case _ =>
        }
    }

  private def outOfScope(
      operator: LogicalPlan,
      u: UnresolvedAttribute,
      scope: LateralAliasScope) = {
    val key = ColsemConf.LateralAliasExtraScopes.key
    val wanted = ColsemConf.LateralAliasExtraScopes.render(
      LateralAliasScope.all.filter((LateralAliasConf.extraScopes(conf) :+ scope).contains))
    ColsemErrors.lateralAliasOutOfScope(
      SparkShims.unresolvedColumnError(operator, u),
      u.name,
      scope.name,
      key,
      wanted,
      u.origin)
  }
}

object ReportOutOfScopeLateralAliases {

  /** Where CheckAnalysis fails first in `e` (an expression of `operator`): the first unresolved
   *  attribute or lateral-alias candidate, children first, a subquery's plan (operators bottom up)
   *  where it stands; with the operator it belongs to. */
  private[lca] def firstUnresolved(
      operator: LogicalPlan,
      e: Expression): Option[(LogicalPlan, Expression)] =
    if (e.resolved) None
    else e.children.iterator.map(firstUnresolved(operator, _)).collectFirst { case Some(found) =>
      found
    }
      .orElse(e match {
        case a: Attribute => Some(operator -> a)
        case c: LateralAliasCandidate => Some(operator -> c)
        case s: SubqueryExpression => firstUnresolvedInPlan(s.plan)
        case _ => None
      })

  private def firstUnresolvedInPlan(plan: LogicalPlan): Option[(LogicalPlan, Expression)] =
    if (plan.resolved) None
    else plan.children.iterator.map(firstUnresolvedInPlan).collectFirst { case Some(found) =>
      found
    }
      .orElse(plan.expressions.iterator.map(firstUnresolved(plan, _)).collectFirst {
        case Some(found) => found
      })
}
