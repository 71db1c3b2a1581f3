package io.colsem.invariants

import org.apache.spark.internal.Logging
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.execution.{SparkPlan, UnaryExecNode}
import org.apache.spark.sql.execution.command.DataWritingCommandExec
import org.apache.spark.sql.execution.datasources.WriteFilesExec
import org.apache.spark.sql.execution.datasources.v2.V2TableWriteExec
import org.apache.spark.sql.vectorized.ColumnarBatch

import io.colsem.errors.ColsemErrors

/**
 * Invariant 4: every row and columnar batch the query returns has the plan's schema. Sits at the
 * root of the query's executed plan (only when the invariants are checked) and looks at what
 * actually comes out of it: each row's field count, each batch's column count and column types.
 * Everything that reads a query's result runs the root's partitions: collect, take and tail
 * serialize them in the tasks (the driver rebuilds rows of the declared width from the bytes, so
 * only the tasks can still see a wrong width), and toPandas/toArrow turn them into Arrow batches
 * with the query's schema (a row of the wrong width fails here instead of becoming a corrupt
 * batch). UnsafeRows carry no types, so a row is checked by width; a
 * columnar batch by width and type.
 */
case class CheckedOutputExec(child: SparkPlan, failOnViolation: Boolean) extends UnaryExecNode {

  override def output: Seq[Attribute] = child.output

  override def argString(maxFields: Int): String =
    if (failOnViolation) "invariants=error" else "invariants=warn"

  override def supportsColumnar: Boolean = child.supportsColumnar

  override def outputPartitioning = child.outputPartitioning

  override def outputOrdering = child.outputOrdering

  private def width = output.length

  override protected def doExecute(): RDD[InternalRow] = {
    val check = rowCheck
    child.execute().mapPartitions(rows => rows.map(check), preservesPartitioning = true)
  }

  override protected def doExecuteColumnar(): RDD[ColumnarBatch] = {
    val (expectedTypes, fail, rootName, schema) =
      (output.map(_.dataType), failOnViolation, child.nodeName, Schemas.physical(output))
    child.executeColumnar().mapPartitions(
      { batches =>
        var reported = false
        batches.map { batch =>
          val types = (0 until batch.numCols()).map(i => batch.column(i).dataType())
          if (types != expectedTypes && !reported) {
            reported = true
            CheckedOutputExec.violation(
              fail,
              rootName,
              s"a columnar batch has ${types.length} columns of types " +
                s"${types.map(_.sql).mkString("(", ", ", ")")}",
              schema)
          }
          batch
        }
      },
      preservesPartitioning = true)
  }

  // collect, take, tail and toLocalIterator all run execute() and serialize its rows in the
  // tasks (the driver rebuilds rows of the declared width from bytes), so the check belongs there.

  /** A function (serializable, for the executors) that checks one row, reporting once. */
  private def rowCheck: InternalRow => InternalRow = {
    val (expected, fail, rootName, schema) =
      (width, failOnViolation, child.nodeName, Schemas.physical(output))
    var reported = false
    row => {
      if (row.numFields != expected && !reported) {
        reported = true
        CheckedOutputExec.violation(
          fail,
          rootName,
          s"a row has ${row.numFields} fields where the plan declares $expected",
          schema)
      }
      row
    }
  }

  override protected def withNewChildInternal(newChild: SparkPlan): CheckedOutputExec =
    copy(child = newChild)
}

object CheckedOutputExec extends Logging {

  /** The check [[InsertCheckedOutput]] placed in an executed plan: at its root, or on the rows
   *  its root writes. */
  def in(plan: SparkPlan): Option[CheckedOutputExec] = plan match {
    case checked: CheckedOutputExec => Some(checked)
    case write: V2TableWriteExec => in(write.child)
    case write: DataWritingCommandExec => in(write.child)
    case files: WriteFilesExec => in(files.child)
    case _ => None
  }

  private[invariants] def violation(
      fail: Boolean,
      rootName: String,
      problem: String,
      schema: Seq[PhysicalField]): Unit = {
    val v = Violation.schemaChanged(
      4,
      s"execution (rows produced by $rootName)",
      problem,
      s"declared ${Schemas.render(schema)}")
    if (fail) throw ColsemErrors.error(v.errorClass, v.parameters)
    logWarning(ColsemErrors.message(v.errorClass, v.parameters))
  }
}
