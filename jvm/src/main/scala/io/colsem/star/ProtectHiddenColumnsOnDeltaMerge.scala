package io.colsem.star

import scala.util.Try

import org.apache.spark.internal.Logging
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf

import io.colsem.errors.ColsemErrors

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
 * [[HoldStarMergeSources]] marks such sources, and this rule leaves them alone. Delta's command is
 * read as a [[DeltaMergeShape]] says ([[DeltaMergeShape.OfDelta]] for the rule colsem injects);
 * a command it cannot read in full (a class or field it names has moved) runs unchecked, with a
 * warning in the driver log.
 */
class ProtectHiddenColumnsOnDeltaMerge(shape: DeltaMergeShape)
  extends (LogicalPlan => Unit)
  with Logging {

  override def apply(plan: LogicalPlan): Unit =
    if (shape.isCommand(plan) || shape.mayBeCommand(plan)) {
      StarExclusion.read(SQLConf.get).foreach { exclusion =>
        shape.read(plan) match {
          case Some(merge) => check(merge, exclusion)
          case None => logWarning(
              s"colsem cannot read this Delta release's ${plan.getClass.getName} as the " +
                "MergeIntoCommand io.colsem.star.DeltaMergeShape describes (a class or field it " +
                "names has moved): this merge runs without the check that hidden columns are " +
                "written. Please report it with your Delta version.")
        }
      }
    }

  private def check(merge: DeltaMerge, exclusion: StarExclusion): Unit = {
    if (HoldStarMergeSources.isStatementSource(merge.source)) return
    val resolver = SQLConf.get.resolver
    val leftOutByStar = merge.source.collect {
      case p => p.getTagValue(ResolveColumnHidingStars.LeftOut).getOrElse(Nil)
    }.flatten
    HiddenColumns.notProvided(
      HiddenColumns.underAliases(merge.target),
      merge.source.output.map(_.name),
      exclusion,
      resolver)
      .foreach { missing =>
        val lost = missing.columns.filter(c =>
          leftOutByStar.exists(resolver(_, c)) &&
            merge.inserts.exists(fillsWithNull(_, c, resolver)))
        if (lost.nonEmpty) {
          throw ColsemErrors.hiddenColumnsNotWrittenByDeltaMerge(missing.tableName, lost)
        }
      }
  }

  /** Whether an insert clause's actions set `column` to a constant NULL (how Delta fills a column
   *  the source lacks), or do not set it at all. */
  private def fillsWithNull(
      actions: Seq[(Seq[String], Expression)],
      column: String,
      resolver: (String, String) => Boolean): Boolean = {
    val forColumn = actions.collect {
      case (Seq(name), value) if resolver(name, column) => value
    }
    forColumn.isEmpty || forColumn.exists(value => isNullConstant(withoutAliases(value)))
  }

  private def withoutAliases(e: Expression): Expression = e match {
    case a: Alias => withoutAliases(a.child)
    case other => other
  }

  private def isNullConstant(e: Expression): Boolean =
    e.foldable && Try(e.eval()).toOption.contains(null)
}

object ProtectHiddenColumnsOnDeltaMerge
  extends ProtectHiddenColumnsOnDeltaMerge(DeltaMergeShape.OfDelta)
