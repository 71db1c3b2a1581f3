package io.colsem.star

import scala.util.Try

import org.apache.spark.sql.catalyst.expressions.{Alias, Expression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf

import io.colsem.ColsemErrors

/**
 * Check rule for data safety: Delta's own merge API (`DeltaTable.merge(source, ...)
 * .whenNotMatched().insertAll().execute()`) resolves its MERGE itself, outside the analyzer, and
 * passes only the finished command through checkAnalysis before running it. With schema evolution
 * on, `insertAll()` from a source that a `*` left a hidden column out of fills that column with
 * NULL in every inserted row:
 *
 * {{{
 *   MergeIntoCommand (Delta)
 *     insert: id = source.id, msg = source.msg, _ts = NULL
 *     source: Project [id, msg]    <- df.select("*"), _ts hidden
 *     target: Relation t [id, msg, _ts]
 * }}}
 *
 * Such a command fails with COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN before it runs. The command no longer
 * says whether an insert was `insertAll()` or an explicit `insert(...)` leaving the column out, so
 * both are refused when the source went through a `*` that hid the column; a source built without
 * `*`, or one that selects the column, merges as before. A SQL MERGE (or `df.mergeInto`) reaches
 * Delta through the analyzer, where [[ProtectHiddenColumnsOnMerge]] already checked its source:
 * [[HoldStarMergeSources]] marks such sources, and this rule leaves them alone.
 */
object ProtectHiddenColumnsOnDeltaMerge extends (LogicalPlan => Unit) {

  private val DeltaMergeCommand = "org.apache.spark.sql.delta.commands.MergeIntoCommand"

  override def apply(plan: LogicalPlan): Unit =
    if (plan.getClass.getName == DeltaMergeCommand) {
      StarExclusion.read(SQLConf.get).foreach(check(plan, _))
    }

  private def check(command: LogicalPlan, exclusion: StarExclusion): Unit = {
    // The command's fields, in the order every Delta release declares them: source, then target.
    val plans = command.productIterator.collect { case p: LogicalPlan => p }.toSeq
    if (plans.size < 2) return
    val (source, target) = (plans(0), plans(1))
    if (source.exists(_.getTagValue(HoldStarMergeSources.StatementSource).isDefined)) return
    val resolver = SQLConf.get.resolver
    val leftOutByStar = source.collect {
      case p => p.getTagValue(ResolveColumnHidingStars.LeftOut).getOrElse(Nil)
    }.flatten
    HiddenColumns.notProvided(
      HiddenColumns.underAliases(target),
      source.output.map(_.name),
      exclusion,
      resolver)
      .foreach { missing =>
        val lost = missing.columns.filter(c =>
          leftOutByStar.exists(resolver(_, c)) &&
            insertClauses(command).exists(fillsWithNull(_, c, resolver)))
        if (lost.nonEmpty) {
          throw ColsemErrors.hiddenColumnsNotWrittenByDeltaMerge(missing.tableName, lost)
        }
      }
  }

  /** Delta's WHEN NOT MATCHED [THEN INSERT] clauses, found by class name: Delta is not on
   *  colsem's class path. */
  private def insertClauses(command: LogicalPlan): Seq[Expression] =
    command.expressions.filter(_.getClass.getSimpleName == "DeltaMergeIntoNotMatchedInsertClause")

  /** Whether an insert clause sets `column` to a constant NULL (how Delta fills a column the
   *  source lacks), or does not set it at all. */
  private def fillsWithNull(
      clause: Expression,
      column: String,
      resolver: (String, String) => Boolean): Boolean = {
    val actions = clause.children.filter(_.getClass.getSimpleName == "DeltaMergeAction")
    val forColumn = actions.filter(_.productIterator.collectFirst { case parts: Seq[_] => parts }
      .exists(parts => parts.size == 1 && resolver(parts.head.toString, column)))
    forColumn.isEmpty || forColumn.exists(_.children.map(withoutAliases).forall(isNullConstant))
  }

  private def withoutAliases(e: Expression): Expression = e match {
    case a: Alias => withoutAliases(a.child)
    case other => other
  }

  private def isNullConstant(e: Expression): Boolean =
    e.foldable && Try(e.eval()).toOption.contains(null)
}
