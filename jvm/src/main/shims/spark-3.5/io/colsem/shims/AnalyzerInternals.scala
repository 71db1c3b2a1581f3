package io.colsem.shims

import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** Spark 3.5 has neither SQL functions nor recursive CTEs. */
object AnalyzerInternals {

  def sqlFunctionParameters(e: Expression): Seq[Attribute] = Nil

  def isRecursiveLoop(plan: LogicalPlan): Boolean = false
}
