package io.colsem.star

import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, MergeIntoTable, SubqueryAlias}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreePattern.COMMAND

import io.colsem.errors.ColsemErrors

/**
 * Resolution rule for data safety: once the target and the held source of a MERGE with
 * `UPDATE SET *` or `INSERT *` ([[HoldStarMergeSources]]) are resolved, a source that lacks hidden
 * columns of the target fails the MERGE with COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN, naming them;
 * otherwise the source is put back and Spark (or the table's format) resolves the actions in the
 * next iteration, as it would have without colsem:
 *
 * {{{
 *   MergeIntoTable [UPDATE SET *]           ==>  MergeIntoTable [UPDATE SET *]
 *   :- RelationV2 t [id, msg, _ts]               :- RelationV2 t [id, msg, _ts]
 *   +- 'UncheckedMergeSource                     +- SubqueryAlias source
 *      +- SubqueryAlias source                      +- Project [id, msg, _ts]
 *         +- Project [id, msg, _ts]                    +- RelationV2 t
 *            +- RelationV2 t
 *
 *   (with `USING (SELECT * FROM t)` the source's Project is [id, msg]: the MERGE fails, naming _ts)
 * }}}
 * Golden: none (a pass inside analysis; a MERGE into the golden tables fails its analysis):
 *   tests/test_table_formats.py::test_a_merge_error_says_that_star_left_the_column_out
 *
 * The source is put back whatever the settings, so no held source outlives analysis.
 */
object ProtectHiddenColumnsOnMerge extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!plan.containsPattern(COMMAND)) plan
    else plan.resolveOperatorsWithPruning(_.containsPattern(COMMAND)) {
      case m: MergeIntoTable if m.targetTable.resolved && heldSource(m).exists(_.resolved) =>
        val source = heldSource(m).get
        StarExclusion.read(conf).foreach(check(m, source, _))
        m.copy(sourceTable = source)
    }

  private def heldSource(m: MergeIntoTable): Option[LogicalPlan] = m.sourceTable match {
    case UncheckedMergeSource(source) => Some(source)
    case _ => None
  }

  private def check(m: MergeIntoTable, source: LogicalPlan, exclusion: StarExclusion): Unit =
    HiddenColumns.notProvided(
      HiddenColumns.underAliases(m.targetTable),
      source.output.map(_.name),
      exclusion,
      conf.resolver)
      .foreach { missing =>
        throw ColsemErrors.hiddenColumnsNotWrittenByMerge(
          "MERGE " + HoldStarMergeSources.starActions(m).mkString(" and "),
          missing.tableName,
          missing.columns,
          missing.providedColumns,
          sourceAlias(source),
          source.origin)
      }

  private def sourceAlias(source: LogicalPlan): Option[String] = source match {
    case SubqueryAlias(identifier, _) => Some(identifier.name)
    case _ => None
  }
}
