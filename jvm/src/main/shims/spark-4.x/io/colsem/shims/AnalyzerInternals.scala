package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.SQLScalarFunction
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, UnionLoop}

/** Plan shapes Spark's analyzer builds for itself, not written by the user (Spark 4.x copy). */
object AnalyzerInternals {

  /** The parameters a call of a SQL function (CREATE FUNCTION ... RETURN) passes its arguments
   *  through: Spark projects each argument below the call, named after its parameter under the
   *  function's name. */
  def sqlFunctionParameters(e: Expression): Seq[Attribute] = e match {
    case f: SQLScalarFunction => f.inputs.collect { case a: Attribute => a }
    case _ => Nil
  }

  /** A recursive CTE's loop: it gives each column of the anchor an attribute of its own under the
   *  anchor's relation and name, even where the anchor lists one field twice (`SELECT x, x`). */
  def isRecursiveLoop(plan: LogicalPlan): Boolean = plan.isInstanceOf[UnionLoop]
}
