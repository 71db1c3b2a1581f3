package io.colsem.star

import org.apache.spark.sql.catalyst.plans.logical.{
  InsertStarAction, LogicalPlan, MergeIntoTable, UpdateStarAction
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

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
 * A MERGE with explicit assignments only is not held: its source is only marked as a statement's.
 */
object HoldStarMergeSources extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = plan match {
    // The statement itself, not a transform: a MERGE is its plan's root, and a transform keeps the
    // node it visited when the rule's result equals it (fastEquals ignores tags), which would drop
    // the marked copy of an explicit-actions MERGE's source.
    case m: MergeIntoTable
        if !isStatementSource(m.sourceTable) && StarExclusion.read(conf).isDefined =>
      val source = statementSource(m.sourceTable)
      m.copy(sourceTable = if (starActions(m).nonEmpty) UncheckedMergeSource(source) else source)
    case other => other
  }

  /** Marks the source of a MERGE statement (SQL, `df.mergeInto`): the format's command it becomes
   *  is left to [[ProtectHiddenColumnsOnMerge]], not [[ProtectHiddenColumnsOnDeltaMerge]]. A tag,
   *  as the command Delta builds from the statement keeps (parts of) the source plan and nothing
   *  else of it; set only on the nodes of a copy of the source made here, so no node a user's
   *  DataFrame shares carries it (a DataFrame merged with `mergeInto` and then with
   *  `DeltaTable.merge` is checked there). Rules that replace a node copy its tags. */
  private val StatementSource: TreeNodeTag[Unit] =
    TreeNodeTag[Unit]("colsem.star.mergeStatementSource")

  private def statementSource(source: LogicalPlan): LogicalPlan = {
    val copy = source.clone()
    copy.foreach(_.setTagValue(StatementSource, ()))
    copy
  }

  /** Whether `source` is, or holds, the source of a MERGE statement this rule marked. */
  def isStatementSource(source: LogicalPlan): Boolean = source match {
    case UncheckedMergeSource(held) => isStatementSource(held)
    case _ => source.exists(_.getTagValue(StatementSource).isDefined)
  }

  /** The MERGE's actions that take every column from the source, as SQL spells them. */
  def starActions(m: MergeIntoTable): Seq[String] =
    ((m.matchedActions ++ m.notMatchedActions).collect {
      case _: UpdateStarAction => "UPDATE SET *"
      case _: InsertStarAction => "INSERT *"
    }).distinct
}
