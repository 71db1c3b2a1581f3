package io.colsem.star

import org.apache.spark.sql.catalyst.plans.logical.{DataFrameDropColumns, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.{DF_DROP_COLUMNS, PROJECT}

import io.colsem.shims.SparkShims

/**
 * Hints-batch rule (Spark 4; before Resolution): marks the projections a DataFrame builds to keep
 * every column of its input, `withColumn(s)`, `withMetadata`, `withColumnRenamed` and `drop`, so
 * that [[HiddenColumns]] passes a hidden column through them as through a filter: they are not a
 * choice of columns. Once resolved they are plain projections, and a SELECT list that names a
 * hidden column looks the same; the mark is what tells them apart.
 * {{{
 *   'Project [unresolvedstarwithcolumns(day, to_date('ts))]   [keeps columns]
 *   +- SubqueryAlias spark_catalog.default.events
 *   =>  (Resolution)
 *   Project [id#1, k#2, ts#3, _ingest#4, to_date(ts#3) AS day#9]   [keeps columns]
 *   +- SubqueryAlias spark_catalog.default.events
 * }}}
 * Golden: none (DataFrame operators; golden files are SQL):
 *   tests/test_star_matrix.py::test_star_over_every_operator_hides_as_over_the_table
 *
 * Marked whatever the session's settings: a DataFrame is analysed when it is built, maybe before
 * the session hides columns. A mark changes nothing else.
 */
object MarkColumnKeepingProjections extends Rule[LogicalPlan] {

  val KeepsColumns: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.star.keepsColumns")

  override def apply(plan: LogicalPlan): LogicalPlan = {
    // A statement parsed from SQL text holds no DataFrame method's projection (a DataFrame a temp
    // view names is analysed already): one check, and SQL queries pay nothing more.
    if (plan.origin.sqlText.isEmpty && plan.containsAnyPattern(PROJECT, DF_DROP_COLUMNS)) {
      mark(plan)
    }
    plan
  }

  /** Only the unresolved part: a classic DataFrame's input is analysed already (and marked when
   *  it was built), so this visits the one new operator on top. */
  private def mark(plan: LogicalPlan): Unit = if (!plan.resolved) {
    plan match {
      case p: Project if p.projectList.exists(SparkShims.isColumnKeepingStar) =>
        p.setTagValue(KeepsColumns, ())
      case d: DataFrameDropColumns => d.setTagValue(KeepsColumns, ())
      case _ =>
    }
    plan.children.foreach(mark)
  }

  def keepsColumns(plan: LogicalPlan): Boolean = plan.getTagValue(KeepsColumns).isDefined
}
