package io.colsem.star

import org.apache.spark.sql.catalyst.plans.logical.{
  InsertStarAction, LogicalPlan, MergeIntoTable, UpdateStarAction
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.COMMAND

/**
 * Hints-batch rule (Spark 4; on 3.5 applied to the parsed statement) for data safety.
 * `UPDATE SET *` and `INSERT *` set every column of a MERGE's target from the source column of the
 * same name. A source that went through a `*` (`USING (SELECT * FROM t)`, a view, `df.select("*")`)
 * lacks the hidden columns, and the actions are expanded in the very pass that resolves the source,
 * before any extension rule runs: Spark's ResolveReferences then fails on the missing column,
 * Delta's DeltaAnalysis turns the MERGE into its own command and fails (both say nothing of `*`),
 * and with schema evolution both fill the column with NULL. So while columns are hidden, the source
 * of such a MERGE is held back until [[ProtectHiddenColumnsOnMerge]] has checked it:
 *
 * {{{
 *   MergeIntoTable [UPDATE SET *, INSERT *]     ==>  MergeIntoTable [UPDATE SET *, INSERT *]
 *   :- 'UnresolvedRelation t                         :- 'UnresolvedRelation t
 *   +- 'SubqueryAlias source                         +- 'UncheckedMergeSource
 *      +- 'Project [*]                                  +- 'SubqueryAlias source
 *         +- 'UnresolvedRelation t                         +- 'Project [*]
 *                                                             +- 'UnresolvedRelation t
 * }}}
 * Golden: none (a pass inside analysis; a MERGE into the golden tables fails its analysis):
 *   tests/test_table_formats.py::test_a_merge_error_says_that_star_left_the_column_out
 *
 * A MERGE with explicit assignments only is left alone.
 */
object HoldStarMergeSources extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!plan.containsPattern(COMMAND) || StarExclusion.read(conf).isEmpty) plan
    else plan.resolveOperatorsWithPruning(_.containsPattern(COMMAND)) {
      case m: MergeIntoTable
          if starActions(m).nonEmpty && !m.sourceTable.isInstanceOf[UncheckedMergeSource] =>
        markStatementSource(m)
        m.copy(sourceTable = UncheckedMergeSource(m.sourceTable))
      case m: MergeIntoTable =>
        markStatementSource(m)
        m
    }

  /** Marks the nodes of a MERGE statement's source (SQL, `df.mergeInto`): the format's command it
   *  becomes is left to [[ProtectHiddenColumnsOnMerge]], not [[ProtectHiddenColumnsOnDeltaMerge]].
   *  Rules that replace a node copy its tags. */
  val StatementSource: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.star.mergeStatementSource")

  private def markStatementSource(m: MergeIntoTable): Unit =
    m.sourceTable.foreach(_.setTagValue(StatementSource, ()))

  /** The MERGE's actions that take every column from the source, as SQL spells them. */
  def starActions(m: MergeIntoTable): Seq[String] =
    ((m.matchedActions ++ m.notMatchedActions).collect {
      case _: UpdateStarAction => "UPDATE SET *"
      case _: InsertStarAction => "INSERT *"
    }).distinct
}
