package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, Exists, Expression, ListQuery, NamedExpression, OuterReference, ScalarSubquery,
  SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.CurrentOrigin

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * Earlier select-list aliases named inside a subquery of a later item (scalar, EXISTS, IN), as
 * outer references: `SELECT k + 1 AS x, (SELECT max(v) FROM t2 WHERE t2.k < x) AS m FROM t` means
 * `t2.k < (t.k + 1)`. Only a name Spark left unresolved after analyzing the subquery, and that
 * vanilla Spark gives no meaning ([[UnresolvableNames]]: the subquery's own columns and the outer
 * columns come first), may mean an alias; the alias is computed once below the list (under its
 * private name, as every alias of a list with subqueries) and the subquery reads that column as an
 * outer reference, under the alias's name (so an unaliased item is named `scalarsubquery(x)`):
 * {{{
 *   Project [k + 1 AS x, scalar-subquery AS m]
 *   :  +- Aggregate [max(v)]
 *   :     +- Filter (t2.k < 'x)
 *   :        +- t2
 *   +- t
 *   =>
 *   Project [__colsem_lca_x AS x, scalar-subquery AS m]
 *   :  +- Aggregate [max(v)]
 *   :     +- Filter (t2.k < outer(x#1))
 *   :        +- t2
 *   +- Project [k, v, (k + 1) AS __colsem_lca_x#1]
 *      +- t
 * }}}
 * Golden: lateral_alias_shapes.sql:
 *   SELECT k + 1 AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < x) AS m FROM lt ORDER BY x, m
 */
private[lca] object SubqueryAliases {

  /** The names of one item's subqueries that mean an earlier alias, each with that alias. */
  type Uses = Map[UnresolvedAttribute, Int]

  /** Item by item, the names in its subqueries that mean an earlier alias of `items`. */
  def uses(
      session: SparkSession,
      resolver: Resolver,
      items: IndexedSeq[NamedExpression],
      input: LogicalPlan): Map[Int, Uses] =
    items.indices.flatMap { i =>
      val found =
        subqueriesOf(items(i)).flatMap(s => unresolvedNames(s.plan)).flatMap { case (u, scopes) =>
          meanings(session, resolver, items, i, u, scopes :+ input) match {
            case Seq() => None
            case Seq(j) => Some(u -> j)
            case many =>
              throw ColsemErrors.ambiguousLateralAlias(u.name, many.map(items(_).origin), u.origin)
          }
        }.toMap
      if (found.isEmpty) None else Some(i -> found)
    }.toMap

  /** The earlier items (before item `i`) whose alias the name `u` of one of item `i`'s subqueries
   *  may mean: none when vanilla Spark gives it a meaning in `scopes` (the plans it reads, the
   *  list's input last) or outside. */
  def meanings(
      session: SparkSession,
      resolver: Resolver,
      items: IndexedSeq[NamedExpression],
      i: Int,
      u: UnresolvedAttribute,
      scopes: Seq[LogicalPlan]): Seq[Int] = {
    val named = AliasNames(items).before(resolver, u.nameParts.head, i)
    if (named.isEmpty || !UnresolvableNames(session, resolver, u, scopes)) Nil else named
  }

  /** Whether `e` has a subquery whose plan Spark has analyzed and left unresolved. */
  def hasUnresolvedSubquery(e: Expression): Boolean = subqueriesOf(e).nonEmpty

  /**
   * `e` with its subqueries reading each used alias's column (`columnOf`, computed below the list)
   * as an outer reference under the alias's name. A subquery Spark would take as resolved at once
   * (and so never record the outer reference in) names the column instead, for Spark to resolve.
   */
  def rewrite(e: Expression, uses: Uses, columnOf: Int => Attribute): Expression =
    if (uses.isEmpty) e
    else e.transform {
      case s: SubqueryExpression if isListSubquery(s) =>
        def rewritePlan(read: (UnresolvedAttribute, Attribute) => Expression) = s.plan.transform {
          case q if q.childrenResolved =>
            q.transformExpressions {
              case u: UnresolvedAttribute if uses.contains(u) =>
                CurrentOrigin.withOrigin(u.origin)(read(u, columnOf(uses(u))))
            }
        }
        val outer = rewritePlan((u, column) =>
          AliasNames.field(
            OuterReference(column.withName(u.nameParts.head)),
            LateralAliasCandidate(u)))
        s.withNewPlan(if (!outer.resolved) outer
        else rewritePlan((u, column) => UnresolvedAttribute(column.name +: u.nameParts.tail)))
    }

  def isListSubquery(s: SubqueryExpression): Boolean = s match {
    case _: ScalarSubquery | _: Exists | _: ListQuery => true
    case _ => false
  }

  /** Subqueries Spark has analyzed (every relation in them resolved) without resolving them. */
  private def subqueriesOf(e: Expression): Seq[SubqueryExpression] = e.collect {
    case s: SubqueryExpression
        if isListSubquery(s) && !s.plan.resolved && s.plan.collectLeaves().forall(_.resolved) => s
  }

  /** The unresolved names of operators whose input is resolved, each with that input. */
  private def unresolvedNames(plan: LogicalPlan): Seq[(UnresolvedAttribute, Seq[LogicalPlan])] =
    plan.collect {
      case q if q.childrenResolved && !q.resolved =>
        q.expressions.flatMap(_.collect { case u: UnresolvedAttribute => u }).distinct.map(
          _ -> q.children)
    }.flatten
}
