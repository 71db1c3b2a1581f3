package io.colsem.star

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Literal, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{
  DataFrameDropColumns, LogicalPlan, Project, Union
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.types.{BooleanType, DataType, NumericType, StringType}

import io.colsem.shims.SparkShims

/**
 * Hints-batch rule (before Resolution): tags the operators a DataFrame call builds to carry its
 * input's columns over, so that [[HiddenColumns]] passes a hidden column through them as through a
 * filter ([[CarriedColumns]]); a column the user named is a new attribute there and shows. After
 * analysis `drop("score")` and `select("id", "name", "_row_id")` are the same plan, so the
 * difference is recorded here, where it is still visible:
 *  - a projection holding the star Spark builds for `withColumn(s)`, `withMetadata` and
 *    `withColumnRenamed(s)` (4.0+; [[SparkShims.isColumnKeepingStar]]);
 *  - `drop(Column)`'s `DataFrameDropColumns`;
 *  - a projection of already-resolved columns that no user's `select` builds (theirs name columns
 *    by string, or by `df["x"]`, which carries `__dataset_id` metadata): `drop(names)` and
 *    `na.fill`/`na.replace` build them, `to(schema)` too, which chooses ([[DataFrameCalls]]); Spark
 *    Connect's `na.fill` rewrote every column of its value's kind unless columns were named;
 *  - a by-name union's inputs ([[UnionInputs]]).
 * {{{
 *   'Project [unresolvedstarwithcolumns(upper, upper('name))]          [carried]
 *   +- SubqueryAlias spark_catalog.default.events                       (analyzed)
 *   =>  (Resolution)
 *   Project [id#1, name#2, _row_id#3, score#4, upper(name#2) AS upper#9] [carried]
 *   +- SubqueryAlias spark_catalog.default.events
 * }}}
 * Golden: none (DataFrame calls; golden files are SQL):
 *   tests/test_star.py::test_dataframe_calls_keep_hidden_columns_hidden
 *
 * Always on: a DataFrame is analysed when it is built, maybe before the session hides columns; a
 * tag changes nothing else. A statement parsed from SQL text returns after one check; otherwise
 * only the operators not analyzed yet are visited (a classic DataFrame's input was tagged when it
 * was built).
 */
object MarkCarriedColumns extends Rule[LogicalPlan] {

  private val DatasetIdKey = "__dataset_id"

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (plan.origin.sqlText.isEmpty) mark(plan)
    plan
  }

  private def mark(plan: LogicalPlan): Unit = if (!plan.analyzed) {
    plan match {
      case p: Project if p.projectList.exists(SparkShims.isColumnKeepingStar) =>
        p.setTagValue(CarriedColumns.Tag, CarriedColumns())
      case d: DataFrameDropColumns => d.setTagValue(CarriedColumns.Tag, CarriedColumns())
      case p: Project if p.childrenResolved && p.projectList.forall(isCarriedItem(_, p)) =>
        carriedBy(p).foreach(p.setTagValue(CarriedColumns.Tag, _))
      case u: Union if u.byName && u.childrenResolved =>
        u.setTagValue(UnionInputs.Tag, UnionInputs(u.children.map(_.output.map(_.exprId))))
      case _ =>
    }
    plan.children.foreach(mark)
  }

  /** A column of the child that no `df["x"]` named, or an expression of resolved columns and
   *  literals under an alias (`na.fill`'s `coalesce(nanvl(score, null), 0.0)` waits for type
   *  coercion, so it is not resolved itself yet). */
  private def isCarriedItem(item: NamedExpression, p: Project): Boolean = item match {
    case a: Attribute => p.child.outputSet.contains(a) && !a.metadata.contains(DatasetIdKey)
    case a: Alias => a.collectLeaves().forall(_.resolved)
    case _ => false
  }

  private def carriedBy(p: Project): Option[CarriedColumns] = DataFrameCalls.current() match {
    case Some(DataFrameCall.DropByName) | Some(DataFrameCall.RewriteNamed) =>
      Some(CarriedColumns())
    case Some(DataFrameCall.RewriteAll) => Some(CarriedColumns(rewrittenInPlace(p)))
    case Some(DataFrameCall.RewriteOfKind) =>
      // Every column of the fill value's kind rewritten: no columns were named (or all of them).
      val rewritten = rewrittenInPlace(p)
      val replaced = rewritten.values.toSet
      val kind = fillKind(p)
      val ofKind = p.child.output.filter(a => kind.exists(_(a.dataType)))
      Some(
        if (ofKind.forall(a => replaced(a.exprId))) CarriedColumns(rewritten)
        else CarriedColumns())
    case Some(DataFrameCall.ToSchema) | None => None
  }

  /** The kind of column `na.fill`'s value fills (numeric, string or boolean), from the value's
   *  literal in the projection's rewrites. */
  private def fillKind(p: Project): Option[DataType => Boolean] =
    p.projectList.iterator.flatMap(_.collect { case l: Literal if l.value != null => l.dataType })
      .collectFirst {
        case _: NumericType => (t: DataType) => t.isInstanceOf[NumericType]
        case _: StringType => (t: DataType) => t.isInstanceOf[StringType]
        case BooleanType => (t: DataType) => t == BooleanType
      }

  /** `coalesce(_row_id, 0) AS _row_id`: an alias of one input column under that column's name. */
  private def rewrittenInPlace(p: Project) = p.projectList.collect {
    case a: Alias if a.references.size == 1 && a.references.head.name == a.name =>
      a.exprId -> a.references.head.exprId
  }.toMap
}
