package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAlias, UnresolvedFunction}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, BaseGroupingSets, Expression, Grouping, GroupingID, NamedExpression, SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan}
import org.apache.spark.sql.internal.SQLConf

import io.colsem.settings.ColsemConf
import io.colsem.shims.SparkShims
import io.colsem.vocabulary.{FunctionKinds, LateralAliasCandidate, PendingItemName}

/**
 * The lateral aliases of an aggregate SELECT list. Aliases used inside aggregate function
 * arguments (`SELECT s1 * 2 AS x, sum(x)`) or named in GROUP BY (`GROUP BY y` with `x + 1 AS y`)
 * are per-row values: they are computed once, in Projects below the Aggregate
 * ([[AliasMaterialization]], under private names), and read there by attribute under the name
 * as written, so an item keeps the name the user wrote (`sum(x)`, not `sum(__colsem_lca_x)`):
 * {{{
 *   Aggregate [s1],                          Aggregate [s1],
 *     [s1 * 2 AS x, sum(x)]                    [(s1 * 2) AS x, sum(x) AS sum(x)]
 *   +- t1                             =>     +- Project [s1, s2, s3, (s1 * 2) AS __colsem_lca_x]
 *                                               +- t1
 * }}}
 * Golden: lateral_alias_drawings.sql: SELECT s1 * 2 AS x, sum(x) FROM t1 GROUP BY s1
 * GROUP BY references to the list (an alias name, an ordinal, ALL) are grouped by the items'
 * expressions with their lateral references inlined ([[GroupingReferences]]).
 * References outside aggregate functions are per-group; those get their plain names back for
 * Spark's native support, which computes them in a Project above the Aggregate. Inside a window
 * function or grouping()/grouping_id() (which native Spark refuses), everywhere below a HAVING
 * with a window function in the list (where that Project would break the plan shape Spark needs),
 * and everywhere under grouping sets on Spark 3.5 (whose native support fails there),
 * a per-group reference is replaced by the expression it names instead, as the hand-inlined query
 * has it; an aggregate in it is computed once by the Aggregate anyway. So is an alias holding a
 * grouping()/grouping_id() call inside an aggregate function's arguments (only the Aggregate
 * computes those):
 * {{{
 *   Aggregate [region],                      Project [region, total, r]
 *     [region, sum(amount) AS total,    =>   +- Window [rank() OVER (ORDER BY _w0) AS r]
 *      rank() OVER (ORDER BY total) AS r]       +- Aggregate [region], [region,
 *                                                    sum(amount) AS total, sum(amount) AS _w0]
 * }}}
 * Golden: lateral_alias_shapes.sql:
 *   SELECT region, sum(amount) AS total, rank() OVER (ORDER BY total) AS r FROM sales GROUP BY ALL
 * (`_w0`: Spark computes the window's ORDER BY, `sum(amount)` as written in the list's place of
 * `total`, in the Aggregate.)
 * None when there is nothing to do, or a per-row alias does not resolve on its own (an aggregate
 * inside it, say), or an alias that would be written again would not give the same value there
 * (non-deterministic, a UDF, a subquery, a window function): Spark's native support then applies.
 */
private[lca] final class AggregateListRewrite(
    session: SparkSession,
    conf: SQLConf,
    nativeDepth: Int) {
  import CallKinds.{isAggregateCall, isWindow}
  import Candidates.unmarkExpression

  def apply(a: Aggregate, parent: AggregateParent): Option[LogicalPlan] = {
    val written =
      LateralAliasBinding(session, conf.resolver, a.aggregateExpressions.toIndexedSeq, a.child)
    // `|> AGGREGATE` items that call an aggregate function only through an alias
    // (`sum(k) AS s, s * 2 AS s2`): Spark's pipe check would find none in them, where the
    // hand-inlined `sum(k) * 2` has one; unwrapped, they are items as in
    // `SELECT v, sum(k) AS s, s * 2 AS s2 ... GROUP BY v`.
    val pipeItems = written.items.indices.filter(i =>
      pipeItem(written.items(i)).exists(item =>
        !callsAggregateOutsideWindows(item) && callsAggregateOutsideWindows(written.inlineIn(
          i,
          item))))
    val binding =
      if (pipeItems.isEmpty) written
      else LateralAliasBinding(
        session,
        conf.resolver,
        written.items.indices.map(i =>
          if (pipeItems.contains(i)) unwrapPipeItem(written.items(i)) else written.items(i)),
        a.child)
    val items = binding.items
    val uses = items.indices.flatMap(i => usesIn(binding, i, items(i), Place.Outside))
    // Aliases that hold a grouping() or grouping_id() call: only the Aggregate can compute those
    // (over grouping sets, per row of their expansion), so inside an aggregate function too such
    // an alias is its expression, as the hand-inlined `min(grouping_id(a))` has it.
    // One pass in list order: an alias uses only earlier ones.
    val holdsGroupingCall = items.indices.foldLeft(Set.empty[Int]) { (holding, j) =>
      if (items(j).exists(isGroupingCall) || binding.uses(j).exists(holding)) holding + j
      else holding
    }
    val perRow = uses.collect { case (j, Place.InAggregate) if !holdsGroupingCall(j) => j }.toSet
    val grouping = GroupingReferences(session, conf, a, binding)
    // Where a per-group alias is replaced by its expression: inside windows and grouping() calls,
    // where Spark's native support refuses it; everywhere below a HAVING with a window function in
    // the list, where its Project above the Aggregate would break the plan shape Spark needs
    // (native Spark refuses these too); and everywhere under ROLLUP, CUBE or GROUPING SETS on a
    // line whose native support fails there (Spark 3.5).
    val inlineEverywhere =
      (parent == AggregateParent.Having && a.aggregateExpressions.exists(_.exists(isWindow))) ||
        (!SparkShims.nativeLateralAliasesUnderGroupingSets &&
          a.groupingExpressions.exists(_.exists(_.isInstanceOf[BaseGroupingSets])))
    def inlines(j: Int, place: Place): Boolean = place match {
      case Place.InAggregate => holdsGroupingCall(j)
      case Place.Outside => inlineEverywhere
      case Place.InWindow | Place.InGroupingCall => true
    }
    val inlined =
      uses.collect { case (j, place) if inlines(j, place) && !perRow.contains(j) => j }.toSet
    // Inlined aliases, and those that grouped items inline, are computed wherever they are
    // written again: only aliases whose recomputation gives the same value are.
    val recomputed =
      binding.closure(inlined) ++ binding.closure(grouping.grouped.flatMap(binding.uses))
    if (recomputed.exists(j => !isRecomputable(items(j)))) return None
    if (perRow.isEmpty && inlined.isEmpty && !grouping.changed && pipeItems.isEmpty) return None
    val materialized =
      if (perRow.isEmpty) Some((
        a.child,
        Substitution(binding, conf.resolver, Map.empty, Set.empty, ComputedNames.Own)))
      else new AliasMaterialization(session, conf.resolver).materialize(
        binding,
        a.child,
        binding.closure(perRow),
        ListKind.Aggregate,
        nativeDepth,
        ColsemConf.LateralAliasMaxDepth.readFrom(conf))
    materialized.map { case (below, substitution) =>
      def substitute(i: Int, e: Expression, place: Place): Expression = e match {
        case c: LateralAliasCandidate => binding.meaning((i, c)) match {
            case Right(j) if place == Place.InAggregate && substitution.computed.contains(j) =>
              substitution.value(c, j, AliasReading.AsWritten)
            case Right(j) if inlines(j, place) => AliasNames.field(binding.inline(j), c)
            case _ => c
          }
        case other => other.mapChildren(substitute(i, _, placeOf(other, place)))
      }
      val aggregates = items.indices.map { i =>
        items(i) match {
          // A grouped item that uses other aliases: the same inlined expression as its grouping
          // expression, so that Spark matches the two (`SELECT 1 AS s, k + s AS z ... GROUP BY
          // s, z` must not fail with MISSING_AGGREGATION on `k`).
          case al: Alias if grouping.grouped.contains(i) && binding.uses(i).nonEmpty =>
            Alias(binding.inline(i), al.name)(
              al.exprId,
              al.qualifier,
              al.explicitMetadata,
              al.nonInheritableMetadataKeys)
          case _: UnresolvedAlias if grouping.grouped.contains(i) && binding.uses(i).nonEmpty =>
            UnresolvedAlias(binding.inlineItem(i))
          case p: PendingItemName if grouping.grouped.contains(i) && binding.uses(i).nonEmpty =>
            p.withItem(binding.inlineItem(i))
          case item =>
            unmarkExpression(substitute(i, item, Place.Outside)).asInstanceOf[NamedExpression]
        }
      }
      a.copy(
        groupingExpressions = grouping.expressions,
        aggregateExpressions = aggregates,
        child = below)
    }
  }

  /** Where in an item an expression is, for the lateral references in it. */
  private sealed trait Place
  private object Place {

    /** In an aggregate function's arguments (outside any window): a per-row value. */
    case object InAggregate extends Place

    /** In a window function or its specification: per group, evaluated above the Aggregate. */
    case object InWindow extends Place

    /** In grouping() or grouping_id(): per group, matched with a grouping expression. */
    case object InGroupingCall extends Place

    /** Anywhere else: per group. */
    case object Outside extends Place
  }

  /** The place of `node`'s children, `node` being at `place`. */
  private def placeOf(node: Expression, place: Place): Place = node match {
    case w if isWindow(w) => Place.InWindow
    case f if place == Place.Outside && isAggregateCall(session, f) => Place.InAggregate
    case g if place == Place.Outside && isGroupingCall(g) => Place.InGroupingCall
    case _ => place
  }

  /** The aliases item i reads, each with where it reads them. */
  private def usesIn(
      binding: LateralAliasBinding,
      i: Int,
      e: Expression,
      place: Place): Seq[(Int, Place)] = e match {
    case c: LateralAliasCandidate => binding.meaning((i, c)) match {
        case Right(j) => Seq((j, place))
        case _ => Nil
      }
    case other => other.children.flatMap(usesIn(binding, i, _, placeOf(other, place)))
  }

  /** What a `|> AGGREGATE` item holds inside Spark's pipe wrapper, if it is one. */
  private def pipeItem(item: NamedExpression): Option[Expression] = item match {
    case al: Alias => SparkShims.pipeAggregateItem(al.child)
    case UnresolvedAlias(child, _) => SparkShims.pipeAggregateItem(child)
    case _ => None
  }

  private def unwrapPipeItem(item: NamedExpression): NamedExpression = item match {
    case al: Alias =>
      Alias(pipeItem(al).get, al.name)(
        al.exprId,
        al.qualifier,
        al.explicitMetadata,
        al.nonInheritableMetadataKeys)
    case u: UnresolvedAlias => u.copy(child = pipeItem(u).get)
    case other => other
  }

  /** Whether `e` calls an aggregate function outside windows and subqueries, as Spark's pipe check
   *  looks for one (an earlier pipe item inlined into `e` is looked into). */
  private def callsAggregateOutsideWindows(e: Expression): Boolean = e match {
    case w if isWindow(w) => false
    case _: SubqueryExpression => false
    case f if isAggregateCall(session, f) => true
    case other => other.children.exists(callsAggregateOutsideWindows)
  }

  private def isGroupingCall(e: Expression): Boolean = e match {
    case _: Grouping | _: GroupingID => true
    case u: UnresolvedFunction =>
      FunctionKinds.implementedBy(session, u, classOf[Grouping]) || FunctionKinds.implementedBy(
        session,
        u,
        classOf[GroupingID])
    case _ => false
  }

  /**
   * Whether alias item's expression, written again where it is used, gives the value the alias
   * has: deterministic built-in functions over the input and aggregates (Spark computes equal
   * aggregate calls of one Aggregate once). A non-deterministic call, a UDF, a subquery, a
   * generator or a window function would be evaluated once more, so such aliases are left to
   * Spark's native support.
   */
  private def isRecomputable(item: Expression): Boolean =
    CallKinds.isRecomputable(session, item, CallKinds.Aggregates.Recomputable)
}
