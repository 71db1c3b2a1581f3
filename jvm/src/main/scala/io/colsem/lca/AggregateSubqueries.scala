package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAttribute, UnresolvedOrdinal}
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, BaseGroupingSets, Expression, LateralColumnAliasReference, NamedExpression,
  OuterReference, SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.trees.CurrentOrigin

import io.colsem.shims.SparkShims

/**
 * Subqueries of an aggregate SELECT list that name an earlier alias of the list
 * ([[SubqueryAliases]] finds the names): the alias is a per-group value, so the subquery is
 * evaluated above the Aggregate and reads the alias's output column as an outer reference, as if
 * the aggregate were a derived table
 * (`SELECT g, m, (SELECT ... m) FROM (SELECT v AS g, max(k) AS m ... GROUP BY v)`):
 * {{{
 *   Aggregate [v], [v AS g, max(k) AS m,              Project [g, m, scalar-subquery AS c]
 *     scalar-subquery AS c]                           :  +- ... Filter (t2.k < outer(m))
 *   :  +- ... Filter (t2.k < 'm)              =>      +- Aggregate [v], [v AS g, max(k) AS m]
 *   +- t                                                 +- t
 * }}}
 * Golden: lateral_alias_aggregate_subqueries.sql:
 *   SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY g
 * Done once every other item has resolved (their columns are what the subqueries read). An item
 * with such a subquery may read grouped columns besides (in the subquery or outside it), which the
 * Aggregate passes up; None (nothing done, the name stays Spark's unresolved one) when it also
 * calls an aggregate function or reads another alias outside its subqueries, reads a column that is
 * not grouped, or when the name would not mean one column above the Aggregate.
 */
private[lca] object AggregateSubqueries {

  def apply(
      session: SparkSession,
      resolver: Resolver,
      a: Aggregate,
      uses: Map[Int, SubqueryAliases.Uses]): Option[LogicalPlan] = {
    val items = a.aggregateExpressions.toIndexedSeq
    val others = items.indices.filterNot(uses.contains)
    if (!others.forall(items(_).resolved)) return None
    val read = uses.keys.toSeq.map(i => columnsRead(session, items(i)))
    if (read.exists(_.isEmpty)) return None
    val passed = read.flatten.flatten.distinct
    // GROUP BY an ordinal, an alias or grouping sets of them resolves only once the whole list
    // has (Spark's rules wait for it): the subqueries move up first, and the GROUP BY resolves
    // against the list without them. Columns a subquery reads must then wait to be known grouped.
    val grouping = if (a.groupingExpressions.forall(_.resolved)) {
      val grouped = a.groupingExpressions.collect { case g: Attribute => g }
      if (!passed.forall(c => grouped.exists(_.semanticEquals(c)))) return None
      a.groupingExpressions
    } else {
      if (passed.nonEmpty || !groupingLetsSubqueriesUp(a)) return None
      val renumbered = a.groupingExpressions.map(renumberOrdinals(_, others))
      if (renumbered.exists(_.isEmpty)) return None
      renumbered.flatten
    }
    val below =
      others.map(items) ++ passed.filterNot(c => others.exists(j => items(j).exprId == c.exprId))
    val aliasesRead = uses.values.flatMap(_.values).toSet
    if (!aliasesRead.forall(j =>
          others.contains(j) && below.count(e => resolver(e.name, items(j).name)) == 1)) return None
    val top = items.indices.map { i =>
      uses.get(i) match {
        case Some(names) => SubqueryAliases.rewrite(
            items(i),
            names,
            j => items(j).toAttribute).asInstanceOf[NamedExpression]
        case None => items(i).toAttribute
      }
    }
    Some(Project(top, a.copy(groupingExpressions = grouping, aggregateExpressions = below)))
  }

  /** Whether the list's subqueries can move above the Aggregate as far as its GROUP BY goes: it
   *  is resolved, or resolves only once the list has ([[waitsForList]]); but before 4.2 not
   *  grouping sets naming items, which get new ids the Project above could not read. */
  def groupingLetsSubqueriesUp(a: Aggregate): Boolean =
    a.groupingExpressions.forall(waitsForList) && (
      SparkShims.groupingSetsOverAliasesKeepItemIds || !a.groupingExpressions.exists {
        case sets: BaseGroupingSets => !sets.children.forall(_.resolved)
        case _ => false
      }
    )

  /** A GROUP BY element Spark resolves only against a resolved list: an ordinal, a name (an
   *  alias of the list, with spark.sql.groupByAliases), or ROLLUP, CUBE, GROUPING SETS of those
   *  and of resolved expressions. */
  private def waitsForList(g: Expression): Boolean = g match {
    case _: UnresolvedOrdinal | _: UnresolvedAttribute => true
    case sets: BaseGroupingSets => sets.children.forall(c => c.resolved || waitsForList(c))
    case other => other.resolved
  }

  /** `g` with each ordinal renumbered for the list of the items `kept` (original positions, in
   *  order); None when an ordinal names an item that moves up (Spark then reports it). */
  private def renumberOrdinals(g: Expression, kept: Seq[Int]): Option[Expression] = {
    val named = g.collect { case UnresolvedOrdinal(n) => n }
    if (!named.forall(n => kept.contains(n - 1))) None
    else Some(g.transform { case o @ UnresolvedOrdinal(n) =>
      CurrentOrigin.withOrigin(o.origin)(UnresolvedOrdinal(kept.indexOf(n - 1) + 1))
    })
  }

  /** The input columns `item` reads, in its subqueries (as outer references) and outside them;
   *  None when it calls an aggregate function or reads a lateral alias outside its subqueries, or
   *  is not resolved there yet. */
  private def columnsRead(session: SparkSession, item: Expression): Option[Seq[Attribute]] =
    item match {
      case s: SubqueryExpression if SubqueryAliases.isListSubquery(s) =>
        Some(s.plan.flatMap(_.expressions.flatMap(_.collect { case OuterReference(c: Attribute) =>
          c
        })).distinct)
      case _: SubqueryExpression | _: LateralColumnAliasReference => None
      case f if CallKinds.isAggregateCall(session, f) => None
      case c: Attribute => if (c.resolved) Some(Seq(c)) else None
      case other if other.children.isEmpty => if (other.resolved) Some(Nil) else None
      case other =>
        val children = other.children.map(columnsRead(session, _))
        if (children.exists(_.isEmpty)) None else Some(children.flatten.flatten)
    }
}
