package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAttribute, UnresolvedOrdinal}
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression, IntegerLiteral, Literal}
import org.apache.spark.sql.catalyst.plans.logical.Aggregate
import org.apache.spark.sql.internal.SQLConf

/**
 * An aggregate's GROUP BY with its references to the SELECT list replaced by the items'
 * expressions, lateral references inlined: what the hand-inlined query groups by. Spark reads three
 * kinds of such references, at the top level or inside ROLLUP, CUBE and GROUPING SETS: an alias
 * name (`spark.sql.groupByAliases`), an ordinal (`spark.sql.groupByOrdinal`) and GROUP BY ALL
 * (every item without an aggregate). Native Spark refuses each of them when the item uses a lateral
 * alias (LATERAL_COLUMN_ALIAS_IN_GROUP_BY):
 * {{{
 *   SELECT k AS a, a + 1 AS b, sum(v) AS s          Aggregate [k, (k + 1)],
 *   FROM lt GROUP BY ALL                        =>            [k AS a, (k + 1) AS b, sum(v) AS s]
 * }}}
 * Golden: lateral_alias_shapes.sql: SELECT k AS a, a + 1 AS b, sum(v) AS s FROM lt GROUP BY ALL
 * Under ROLLUP, CUBE and GROUPING SETS the same, and Spark then expands the groups:
 * {{{
 *   SELECT k AS a, a + 1 AS b, sum(v) AS s,       Aggregate [k, (k + 1), spark_grouping_id],
 *     grouping(b) AS gb,                            [k AS a, (k + 1) AS b, sum(v) AS s, ...]
 *     grouping_id(a, b) AS gid              =>    +- Expand [...]
 *   FROM lt GROUP BY ROLLUP(1, 2)                    +- Project [k, v, k, (k + 1)]
 * }}}
 * Golden: lateral_alias_shapes.sql: grouping_id(a, b) AS gid FROM lt GROUP BY ROLLUP(1, 2)
 * `grouped` are the items so referenced: [[AggregateListRewrite]] gives those that use aliases the
 * same inlined expression in the list, so that Spark matches them with their grouping expression.
 * `changed` says whether that is needed: for a top-level alias name (colsem's GROUP BY alias
 * support before this), for an ordinal or a nested alias name whose item uses an alias, for ALL
 * when any item does; elsewhere Spark keeps its own handling, and errors. Once needed, every
 * reference is replaced. An ordinal Spark would refuse (out of range, an aggregate item) stays for
 * Spark to report.
 */
private[lca] final case class GroupingReferences(
    expressions: Seq[Expression],
    grouped: Set[Int],
    changed: Boolean)

private[lca] object GroupingReferences {

  def apply(
      session: SparkSession,
      conf: SQLConf,
      a: Aggregate,
      binding: LateralAliasBinding): GroupingReferences = {
    val items = binding.items
    def usesAliases(i: Int): Boolean = binding.uses(i).nonEmpty
    def hasAggregate(i: Int): Boolean =
      binding.inlineItem(i).exists(CallKinds.isAggregateCall(session, _))
    def isInputColumn(u: UnresolvedAttribute): Boolean =
      a.child.resolve(u.nameParts, conf.resolver).isDefined

    if (isGroupByAll(a.groupingExpressions, isInputColumn, aliasNamed(conf, items, _).isDefined) &&
        items.indices.exists(usesAliases)) {
      val plain = items.indices.filterNot(hasAggregate)
      // Nothing to group by, yet a column read outside aggregates (`k + sum(v)`): Spark cannot
      // tell the groups, and refuses; left to it.
      if (plain.isEmpty && items.indices.exists(i =>
            readsColumnOutsideAggregates(session, binding.inlineItem(i)))) {
        GroupingReferences(a.groupingExpressions, Set.empty, changed = false)
      } else {
        val expressions = plain.zipWithIndex.map { case (i, n) =>
          binding.inlineItem(i) match {
            // As Spark expands ALL: an integer constant would be read as an ordinal, so the item's
            // position among the groups is used (grouping by a constant means nothing anyway).
            case IntegerLiteral(_) => Literal(n + 1)
            case e => e
          }
        }
        GroupingReferences(expressions, plain.toSet, changed = true)
      }
    } else {
      // Each expression with its references replaced, the items they reference, and whether one
      // of those is a reason to rewrite (the others are replaced too, as Spark 4 would: Spark 3.5
      // keeps `k AS a` inside ROLLUP, which no grouping(k) then matches).
      def replace(g: Expression, topLevel: Boolean): (Expression, Set[Int], Boolean) = g match {
        case u: UnresolvedAttribute if u.nameParts.size == 1 && !isInputColumn(u) =>
          aliasNamed(conf, items, u.nameParts.head) match {
            case Some(j) => (binding.inline(j), Set(j), topLevel || usesAliases(j))
            case None => (u, Set.empty, false)
          }
        case o @ UnresolvedOrdinal(index) =>
          val i = index - 1
          if (items.indices.contains(i) && !hasAggregate(i))
            (binding.inlineItem(i), Set(i), usesAliases(i))
          else (o, Set.empty, false)
        case other =>
          val children = other.children.map(replace(_, topLevel = false))
          val referenced = children.flatMap(_._2).toSet
          (
            if (referenced.isEmpty) other else other.withNewChildren(children.map(_._1)),
            referenced,
            children.exists(_._3))
      }
      val replaced = a.groupingExpressions.map(replace(_, topLevel = true))
      GroupingReferences(
        replaced.map(_._1),
        replaced.flatMap(_._2).toSet,
        changed = replaced.exists(_._3))
    }
  }

  /** Spark's GROUP BY ALL: the one grouping expression is the name ALL, no column or alias. */
  private def isGroupByAll(
      groups: Seq[Expression],
      isInputColumn: UnresolvedAttribute => Boolean,
      isAlias: String => Boolean): Boolean = groups match {
    case Seq(u: UnresolvedAttribute) =>
      u.nameParts.size == 1 && u.nameParts.head.equalsIgnoreCase("ALL") && !isInputColumn(
        u) && !isAlias(u.nameParts.head)
    case _ => false
  }

  /** The one alias (not an implicit name) of that name, when Spark reads GROUP BY aliases. */
  private def aliasNamed(
      conf: SQLConf,
      items: IndexedSeq[_ <: Expression],
      name: String): Option[Int] =
    if (!conf.groupByAliases) None
    else AliasNames(items.toIndexedSeq).named(conf.resolver, name, items.indices) match {
      case Seq(j) => Some(j)
      case _ => None
    }

  /** Whether `e` reads a column outside aggregate functions (`i + sum(j)`, not `sum(j) / 2`). */
  private def readsColumnOutsideAggregates(session: SparkSession, e: Expression): Boolean =
    e match {
      case f if CallKinds.isAggregateCall(session, f) => false
      case _: Attribute | _: UnresolvedAttribute => true
      case other => other.children.exists(readsColumnOutsideAggregates(session, _))
    }
}
