package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.expressions.{Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.Filter
import org.apache.spark.sql.catalyst.trees.Origin

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * Select-list aliases named in the WHERE directly below the list, as DuckDB and Snowflake read
 * them: `SELECT price * qty AS total FROM orders WHERE total > 100` filters on `price * qty`. Only
 * a name vanilla Spark gives no meaning ([[UnresolvableNames]]) may mean an alias, and it means the
 * one item of the list with that alias (two: AMBIGUOUS_LATERAL_COLUMN_ALIAS); the WHERE must follow
 * the list in the SQL text (pipe syntax filters before a later `|> SELECT`). In a plain list the
 * alias is computed once, below the Filter, and the list reads it there (so a `rand()` alias
 * filters on the value it returns):
 * {{{
 *   Project [price * qty AS total]
 *   +- Filter (total > 100)
 *      +- orders
 *   =>
 *   Project [__colsem_lca_total AS total]
 *   +- Filter (__colsem_lca_total > 100)
 *      +- Project [id, price, qty, (price * qty) AS __colsem_lca_total]
 *         +- orders
 * }}}
 * Golden: lateral_alias_shapes.sql: qty AS total FROM orders WHERE total > 100 ORDER BY total
 * An aggregate list computes its aliases per group, after the WHERE: there the Filter gets the
 * alias's expression ([[inline]]). An alias of an aggregate or a window function (or one that uses
 * such an alias) has no value yet when WHERE filters rows: COLSEM_AGGREGATE_ALIAS_IN_WHERE /
 * COLSEM_WINDOW_ALIAS_IN_WHERE.
 */
private[lca] object WhereAliases {
  import CallKinds.{hasAggregateCall, isWindow}

  /** The names in `filter`'s condition that mean an alias of `items`, each with that item. Empty
   *  until the Filter's input is resolved: until then Spark may still resolve them. */
  def uses(
      session: SparkSession,
      resolver: Resolver,
      items: Seq[NamedExpression],
      filter: Filter): Map[UnresolvedAttribute, Int] =
    if (filter.condition.resolved || !filter.child.resolved) Map.empty
    else filter.condition.collect { case u: UnresolvedAttribute => u }.distinct.flatMap { u =>
      meanings(session, resolver, items, filter, u) match {
        case Seq() => None
        case Seq(j) => Some(u -> j)
        case many =>
          throw ColsemErrors.ambiguousLateralAlias(u.name, many.map(items(_).origin), u.origin)
      }
    }.toMap

  /** The items of `items` whose alias the name `u` of `filter`'s condition may mean: none when
   *  vanilla Spark gives it a meaning. */
  def meanings(
      session: SparkSession,
      resolver: Resolver,
      items: Seq[NamedExpression],
      filter: Filter,
      u: UnresolvedAttribute): Seq[Int] = {
    val named =
      AliasNames(items.toIndexedSeq).before(resolver, u.nameParts.head, items.size)
        .filter(j => follows(u.origin, items(j).origin))
    if (named.isEmpty || !UnresolvableNames(session, resolver, u, Seq(filter.child))) Nil else named
  }

  /** Whether the condition lacks more than these aliases: an IN subquery Spark resolves only once
   *  its values are (the alias among them). Rewritten with its aliases computed below, such a
   *  Filter would stay unresolved under a list that reads its output, and Spark renewing a
   *  relation below it (DeduplicateRelations, for a self-join or a set operation) rewrites no
   *  operator above an unresolved one: the list would read the old attributes
   *  (MISSING_ATTRIBUTES; the fuzzer's query 2106 of seed 1). Such a Filter gets the aliases'
   *  expressions, as below an aggregate list. */
  def lacksMore(condition: Expression, uses: Map[UnresolvedAttribute, Int]): Boolean = {
    def unresolvedLeaves(e: Expression): Seq[Expression] =
      if (e.resolved) Nil
      else if (e.children.forall(_.resolved)) Seq(e)
      else e.children.flatMap(unresolvedLeaves)
    unresolvedLeaves(condition).exists {
      case u: UnresolvedAttribute => !uses.contains(u)
      case _ => true
    }
  }

  /** Whether the name comes after the item in one SQL text: a WHERE after its SELECT list, not a
   *  pipe `|> WHERE` before a later `|> SELECT` (nor a DataFrame's filter, with a text of its
   *  own). */
  private def follows(name: Origin, item: Origin): Boolean =
    name.sqlText.isDefined && name.sqlText == item.sqlText &&
      name.startIndex.exists(n => item.stopIndex.exists(n > _))

  /** Fails unless every alias the WHERE uses (and every alias those use) has a value per input
   *  row: no aggregate, no window function. */
  def checkPerRow(
      session: SparkSession,
      binding: LateralAliasBinding,
      uses: Map[UnresolvedAttribute, Int]): Unit =
    uses.toSeq.sortBy(_._1.origin.startIndex).foreach { case (u, j) =>
      binding.closure(Set(j)).toSeq.sorted.foreach { k =>
        val item = binding.items(k)
        if (item.exists(isWindow)) {
          throw ColsemErrors.windowAliasInWhere(u.name, item.origin, u.origin)
        }
        if (hasAggregateCall(session, item)) {
          throw ColsemErrors.aggregateAliasInWhere(u.name, item.origin, u.origin)
        }
      }
    }

  /** The condition reading each used alias through `value`. */
  def rewrite(
      condition: Expression,
      uses: Map[UnresolvedAttribute, Int],
      value: (LateralAliasCandidate, Int) => Expression): Expression =
    condition.transform {
      case u: UnresolvedAttribute if uses.contains(u) => value(LateralAliasCandidate(u), uses(u))
    }

  /** An aggregate list's alias as the WHERE reads it: its expression, lateral names inlined. */
  def inline(binding: LateralAliasBinding)(c: LateralAliasCandidate, j: Int): Expression =
    AliasNames.field(binding.inline(j), c)
}
