package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan}
import org.apache.spark.sql.internal.SQLConf

import io.colsem.{ColsemConf, LateralAliasCandidate, PlanTags}

/**
 * The lateral aliases of an aggregate SELECT list. Aliases used inside aggregate function
 * arguments (`SELECT s1 * 2 AS x, sum(x)`) or named in GROUP BY (`GROUP BY y` with `x + 1 AS y`)
 * are per-row values: they are computed once, in Projects below the Aggregate
 * ([[AliasMaterialization]], under private names), and read there:
 * {{{
 *   Aggregate [k], [k AS x, sum(x)]                Aggregate [k], [k AS x, sum(__colsem_lca_x)]
 *   +- input                                =>     +- Project [..., k AS __colsem_lca_x]
 *                                                     +- input
 * }}}
 * A GROUP BY alias is grouped by its expression, as Spark's own GROUP BY alias support would
 * substitute it, with its lateral references inlined ([[LateralAliasBinding.inline]]).
 * References outside aggregate functions are per-group; those get their plain names back for
 * Spark's native support, which computes them in a Project above the Aggregate; except below a
 * HAVING with a window function in the list, where that Project would break the plan shape Spark
 * needs (its native support refuses these): there deterministic per-group references are replaced
 * by the expression they name (an aggregate in it is computed once by the Aggregate anyway).
 * None when there is nothing to do, or a per-row alias does not resolve on its own (an aggregate
 * inside it, say), or a per-group one under such a HAVING is non-deterministic.
 */
private[lca] final class AggregateListRewrite(session: SparkSession, conf: SQLConf, nativeDepth: Int) {
  import ResolveLateralAliases.{isAggregateCall, isNondeterministicCall, isWindow, unmarkExpression}

  def apply(a: Aggregate, underHaving: Boolean): Option[LogicalPlan] = {
    val binding = LateralAliasBinding(session, conf.resolver, a.aggregateExpressions.toIndexedSeq, a.child)
    val items = binding.items
    val perRow = items.indices.flatMap(i => perRowUses(binding, i, items(i), inAggregate = false, inWindow = false)).toSet
    val groupedAliases = a.groupingExpressions.map(groupedAlias(a, items, _))
    val inlinePerGroup = underHaving && a.aggregateExpressions.exists(_.exists(isWindow))
    val perGroup = if (!inlinePerGroup) Set.empty[Int] else items.indices.flatMap { i =>
      items(i).collect { case c: LateralAliasCandidate => binding.meaning((i, c)) }
        .collect { case Right(j) if !perRow.contains(j) => j }
    }.toSet
    if (binding.closure(perGroup).exists(j => items(j).exists(isNondeterministicCall(session, _)))) return None
    if (perRow.isEmpty && perGroup.isEmpty && groupedAliases.forall(_.isEmpty)) return None
    val materialized =
      if (perRow.isEmpty) Some((a.child, Substitution(binding, conf.resolver, Map.empty, Set.empty, privateNames = false)))
      else new AliasMaterialization(session, conf.resolver).materialize(binding, a.child, binding.closure(perRow),
        copies = true, nativeDepth, ColsemConf.LateralAliasMaxDepth.readFrom(conf))
    materialized.map { case (below, substitution) =>
      def substitute(i: Int, e: Expression, inAggregate: Boolean, inWindow: Boolean): Expression = e match {
        case c: LateralAliasCandidate => binding.meaning((i, c)) match {
          case Right(j) if inAggregate && substitution.computed.contains(j) =>
            substitution.value(c, j, asWritten = true)
          case Right(j) if inlinePerGroup => LateralAliasBinding.field(binding.inline(j), c)
          case _ => c
        }
        case w if isWindow(w) => w.mapChildren(substitute(i, _, inAggregate, inWindow = true))
        case f if !inWindow && isAggregateCall(session, f) => f.mapChildren(substitute(i, _, true, false))
        case other => other.mapChildren(substitute(i, _, inAggregate, inWindow))
      }
      val aggregates = items.indices.map { i =>
        items(i) match {
          // A GROUP BY alias that uses other aliases: the same inlined expression as its grouping
          // expression, so that Spark matches the two (`SELECT 1 AS s, k + s AS z ... GROUP BY
          // s, z` must not fail with MISSING_AGGREGATION on `k`).
          case al: Alias if groupedAliases.contains(Some(i)) && al.exists(_.isInstanceOf[LateralAliasCandidate]) =>
            Alias(binding.inline(i), al.name)(al.exprId, al.qualifier, al.explicitMetadata, al.nonInheritableMetadataKeys)
          case item =>
            unmarkExpression(substitute(i, item, inAggregate = false, inWindow = false)).asInstanceOf[NamedExpression]
        }
      }
      val groups = a.groupingExpressions.zip(groupedAliases).map {
        case (_, Some(j)) => binding.inline(j)
        case (g, None) => g
      }
      a.copy(groupingExpressions = groups, aggregateExpressions = aggregates, child = below)
    }
  }

  /** The aliases item i reads inside an aggregate function's arguments (outside any window). */
  private def perRowUses(binding: LateralAliasBinding, i: Int, e: Expression, inAggregate: Boolean,
      inWindow: Boolean): Seq[Int] = e match {
    case c: LateralAliasCandidate => binding.meaning((i, c)) match {
      case Right(j) if inAggregate => Seq(j)
      case _ => Nil
    }
    case w if isWindow(w) => w.children.flatMap(perRowUses(binding, i, _, inAggregate, inWindow = true))
    case f if !inWindow && isAggregateCall(session, f) => f.children.flatMap(perRowUses(binding, i, _, true, false))
    case other => other.children.flatMap(perRowUses(binding, i, _, inAggregate, inWindow))
  }

  /** The item a GROUP BY name means when it is no input column but the one alias of that name. */
  private def groupedAlias(a: Aggregate, items: IndexedSeq[NamedExpression], g: Expression): Option[Int] = g match {
    case u: UnresolvedAttribute if u.nameParts.size == 1 && a.child.resolve(u.nameParts, conf.resolver).isEmpty =>
      items.indices.filter(j => items(j) match {
        case al: Alias if !PlanTags.isImplicitName(al) => conf.resolver(al.name, u.nameParts.head)
        case _ => false
      }) match {
        case Seq(j) => Some(j)
        case _ => None
      }
    case _ => None
  }
}
