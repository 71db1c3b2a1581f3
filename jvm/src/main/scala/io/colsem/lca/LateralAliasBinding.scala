package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAlias}
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.{FunctionKinds, LateralAliasCandidate, PendingItemName}

/**
 * What each [[LateralAliasCandidate]] of one SELECT list means over the list's input, decided once
 * and never changed: the input's column of that name (which wins, as in Spark), a parameterless
 * function of that name (`current_user`), the one earlier alias of that name, or nothing (the plain
 * name again, for Spark to resolve as an outer reference or report). Two earlier aliases of the
 * name: AMBIGUOUS_LATERAL_COLUMN_ALIAS. From the meanings follow which aliases each item uses and
 * so the dependency levels by which [[AliasMaterialization]] computes them below the list:
 * {{{
 *   SELECT a + 1 AS x, x * 2 AS y, y - x AS z, x + k FROM t     (t has columns a, k)
 *
 *   item 0  x    uses -          level 0
 *   item 1  y    uses x          level 1
 *   item 2  z    uses y, x       level 2
 *   item 3       uses x; k is t's column
 * }}}
 * A candidate's meaning is keyed by its item too: which earlier aliases a name can mean depends
 * on the item's position. Names inside an item's subqueries that mean an earlier alias
 * ([[SubqueryAliases]]) are uses of it as well.
 */
private[lca] final class LateralAliasBinding private (
    val items: IndexedSeq[NamedExpression],
    val meaning: Map[(Int, LateralAliasCandidate), Either[Expression, Int]],
    val inSubqueries: Map[Int, SubqueryAliases.Uses],
    dependsOn: IndexedSeq[Set[Int]]) {

  /** The earlier aliases item i uses directly. */
  def uses(i: Int): Set[Int] = dependsOn(i)

  /** Aliases some item uses. */
  def used: Set[Int] = dependsOn.flatten.toSet

  /** `wanted` and every alias they use, transitively. */
  def closure(wanted: Set[Int]): Set[Int] =
    (items.size - 1 to 0 by -1).foldLeft(wanted)((all, i) =>
      if (all.contains(i)) all ++ dependsOn(i) else all)

  /** Each item's dependency level among the aliases `kept` (computed below the list); an alias in
   *  `folded` is no level of its own and stands for the aliases it uses. */
  def levels(kept: Set[Int], folded: Set[Int]): IndexedSeq[Int] = {
    // A folded alias's level is that of its deepest kept input, so an item's level is one more
    // than the deepest of its direct uses' (kept: their level; folded: the level they stand for):
    // one pass in item order, linear in the uses.
    items.indices.foldLeft(Vector.empty[Int]) { (level, i) =>
      val below = dependsOn(i).iterator.map(j =>
        if (kept.contains(j)) level(j) + 1 else if (folded.contains(j)) level(j) else 0)
      level :+ below.foldLeft(0)(math.max)
    }
  }

  /** Alias j's expression with every lateral reference in it replaced by the expression it
   *  names, recursively (for GROUP BY, which groups by expressions, not by select items). */
  def inline(j: Int): Expression = items(j) match {
    case a: Alias => inlineIn(j, a.child)
    case other => other
  }

  /** Item i's expression (the aliased or unaliased one) with its lateral references inlined: what
   *  the hand-inlined query has in its place, for GROUP BY ALL and ordinals. */
  def inlineItem(i: Int): Expression = items(i) match {
    case a: Alias => inlineIn(i, a.child)
    case UnresolvedAlias(child, _) => inlineIn(i, child)
    case p: PendingItemName => inlineIn(i, p.child)
    case other => inlineIn(i, other)
  }

  /** `e`, part of item i, with every lateral reference replaced by the expression it names. */
  def inlineIn(i: Int, e: Expression): Expression = e.transformUp {
    case c: LateralAliasCandidate => meaning((i, c)) match {
        case Left(expr) => expr
        case Right(k) => AliasNames.field(inline(k), c)
      }
  }
}

private[lca] object LateralAliasBinding {

  def apply(
      session: SparkSession,
      resolver: Resolver,
      items: IndexedSeq[NamedExpression],
      input: LogicalPlan,
      inSubqueries: Map[Int, SubqueryAliases.Uses] = Map.empty): LateralAliasBinding = {
    val aliases = AliasNames(items)
    val meanings = items.indices.map { i =>
      items(i).collect { case c: LateralAliasCandidate => c }.distinct.map { c =>
        c -> meaningOf(session, resolver, items, aliases, input, i, c)
      }
    }
    val dependsOn = meanings.zipWithIndex.map { case (ms, i) =>
      ms.collect { case (_, Right(j)) => j }.toSet ++ inSubqueries.get(i).toSeq.flatMap(_.values)
    }
    val byItem = meanings.zipWithIndex.flatMap { case (ms, i) =>
      ms.map { case (c, m) => (i, c) -> m }
    }
    new LateralAliasBinding(items, byItem.toMap, inSubqueries, dependsOn)
  }

  private def meaningOf(
      session: SparkSession,
      resolver: Resolver,
      items: IndexedSeq[NamedExpression],
      aliases: AliasNames,
      input: LogicalPlan,
      i: Int,
      c: LateralAliasCandidate): Either[Expression, Int] =
    input.resolve(c.nameParts, resolver) match {
      case Some(column) => Left(column)
      // A parameterless function (`current_user`) comes before an alias, as in Spark.
      case None
          if c.nameParts.size == 1 && FunctionKinds.isLiteralFunction(session, c.nameParts.head) =>
        Left(c.attribute)
      case None =>
        val name = c.nameParts.head
        aliases.before(resolver, name, i) match {
          case Seq(j) => Right(j)
          case Seq() => Left(c.attribute)
          case many => throw ColsemErrors.ambiguousLateralAlias(
              c.attribute.name,
              many.map(items(_).origin),
              c.attribute.origin)
        }
    }
}
