package io.colsem.lca

import org.apache.spark.sql.SparkSession

import org.apache.spark.sql.catalyst.expressions.{Alias, Expression}

import io.colsem.vocabulary.LateralAliasCandidate

/**
 * Which aliases of a long chain are folded into their users instead of being computed below the
 * list. Past native Spark's depth (where its plans stop anyway), one Project per level would make
 * the plan as deep as the chain, and Spark's recursive plan processing slow and, past a few
 * hundred levels, overflowing. A plain alias (a deterministic built-in expression) is folded into
 * the items that use it, as long as the folded expression stays small (at most [[FoldSize]]
 * nodes) and at most [[FoldDepth]] aliases are folded in a row; codegen evaluates such a shared
 * deterministic part once. Everything else (non-deterministic, a UDF, a subquery) is still
 * computed once below. In a chain, the first eight aliases fold into the ninth, which is computed:
 * one Project per nine aliases, where native Spark would need a level (and two analyzer
 * iterations) per alias:
 * {{{
 *   SELECT s1 AS x1, x1 + 1 AS x2, ..., x49 + 1 AS x50 FROM t1         (a list of 50 items)
 *
 *   Project [s1 AS x1, (s1 + 1) AS x2, ..., x9, (x9 + 1) AS x10, ..., x45, ..., AS x50]
 *   +- Project [s1, s2, s3, x9, x18, x27, x36, (((x36 + 1) + 1) ... + 1) AS x45]
 *      +- ...                                       (the Projects computing x36, x27)
 *         +- Project [s1, s2, s3, x9, (((x9 + 1) + 1) ... + 1) AS x18]
 *            +- Project [s1, s2, s3, (((s1 + 1) + 1) ... + 1) AS x9]     (x1 .. x8 folded)
 *               +- Relation t1 [s1, s2, s3]
 * }}}
 * Golden: lateral_alias_drawings.sql: SELECT s1 AS x1, x1 + 1 AS x2, x2 + 1 AS x3
 */
private[lca] object ChainFolding {

  /** The most aliases folded into one expression in a row, in chains up to [[Levels]] * 8 deep. */
  val FoldDepth = 8

  /** The largest expression (in nodes) a folded alias may become, at [[FoldDepth]]. */
  val FoldSize = 64

  /** The nested Projects a plain chain is folded into at most: deeper chains fold longer runs
   *  (each fold still a shallow expression), so the plan's depth stays well within the stack. */
  val Levels = 250

  /** The aliases among `which` to fold, each within the run and size limits for that depth. */
  def folded(session: SparkSession, binding: LateralAliasBinding, which: Set[Int]): Set[Int] = {
    val (foldDepth, foldSize) = limits(binding, which)
    which.toSeq.sorted.foldLeft(Map.empty[Int, (Int, Int)]) { (folds, j) =>
      val depth = 1 + (0 +: binding.uses(j).toSeq.flatMap(folds.get).map(_._1)).max
      val size = binding.items(j).collect {
        case c: LateralAliasCandidate => binding.meaning((j, c)) match {
            case Right(k) if folds.contains(k) => folds(k)._2
            case _ => 1
          }
        case _ => 1
      }.sum
      if (depth <= foldDepth && size <= foldSize && isPlainRowExpression(
            session,
            binding.items(j))) {
        folds + (j -> (depth, size))
      } else {
        folds
      }
    }.keySet
  }

  /** The longest run of folds and the largest folded expression for `which`: [[FoldDepth]] and
   *  [[FoldSize]], scaled up by how much deeper than [[Levels]] * [[FoldDepth]] the chain is. */
  private def limits(binding: LateralAliasBinding, which: Set[Int]): (Int, Int) = {
    val level = binding.levels(which, Set.empty)
    val chainDepth = if (which.isEmpty) 0 else which.iterator.map(level).max + 1
    val scale = math.max(1, (chainDepth + Levels * FoldDepth - 1) / (Levels * FoldDepth))
    (FoldDepth * scale, FoldSize * scale)
  }

  /** Whether recomputing this alias inside its user is as good as reading it: deterministic,
   *  no UDF, aggregate, window, generator or subquery (codegen shares the common part). */
  private def isPlainRowExpression(session: SparkSession, item: Expression): Boolean = item match {
    case a: Alias => CallKinds.isRecomputable(session, a.child, CallKinds.Aggregates.Refused)
    case _ => false
  }
}
