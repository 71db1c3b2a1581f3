package io.colsem.star

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{AttributeReference, Expression}
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{BooleanType, IntegerType, StringType}
import org.apache.spark.unsafe.types.UTF8String

import io.colsem.errors.ColsemErrors
import io.colsem.status.TableFunctions

/**
 * `SELECT * FROM colsem_columns('t')`: every column of a table, view or temp view, whether `*`
 * leaves it out under the session's settings, and every marker that could (a property, field
 * metadata, the pattern), so a user can see why. DESCRIBE lists all columns unchanged.
 */
object ColumnsTableFunction {
  val Name = "colsem_columns"

  val description: TableFunctions.Description = TableFunctions.describe(
    this,
    Name,
    "(name) - One row per column of the table or view `name`: position, name, type, " +
      "hidden (whether SELECT * leaves it out in this session), reasons.",
    s"SELECT * FROM $Name('events');")(args => plan(tableName(args), SparkSession.active))

  private def tableName(args: Seq[Expression]): String = args match {
    case Seq(arg) if arg.foldable && arg.dataType.isInstanceOf[StringType] && arg.eval() != null =>
      arg.eval().toString
    case _ => throw ColsemErrors.columnsArguments(args.size)
  }

  private def plan(name: String, session: SparkSession): LogicalPlan = {
    val conf = SQLConf.get
    val exclusion = StarExclusion.current(conf)
    val named = session.table(name).queryExecution.analyzed
    val found = HiddenColumns.markers(named, StarExclusion.configuredPattern(conf), conf.resolver)
    val rows =
      named.output.map(column => column -> found.getOrElse(column.exprId, Nil)).zipWithIndex.map {
        case ((column, markers), i) =>
          val reasons = markers.map(m =>
            s"${m.reason} (${m.strategy.name}${if (exclusion.isOn(m.strategy)) "" else ", off"})")
          InternalRow(
            i + 1,
            UTF8String.fromString(column.name),
            UTF8String.fromString(column.dataType.sql),
            exclusion.hides(markers),
            if (reasons.isEmpty) null else UTF8String.fromString(reasons.mkString("; ")))
      }
    LocalRelation(
      Seq(
        AttributeReference("position", IntegerType, nullable = false)(),
        AttributeReference("name", StringType, nullable = false)(),
        AttributeReference("type", StringType, nullable = false)(),
        AttributeReference("hidden", BooleanType, nullable = false)(),
        AttributeReference("reasons", StringType, nullable = true)()),
      rows)
  }
}
