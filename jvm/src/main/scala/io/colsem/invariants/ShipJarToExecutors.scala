package io.colsem.invariants

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, SparkPlan}

import io.colsem.jar.ExecutorJar

/**
 * Ships colsem's jar to the executors (`SparkContext.addJar`, through [[ExecutorJar]]) when a
 * plan holds [[CheckedOutputExec]] (`CheckedOutputExec.in`), whose row check runs in tasks: after
 * [[InsertCheckedOutput]] and before any task starts, so a jar colsem cannot ship fails the query
 * with COLSEM_JAR_NOT_ON_EXECUTORS instead of failing its tasks.
 */
class ShipJarToExecutors(session: SparkSession) extends ColumnarRule {
  override def postColumnarTransitions: Rule[SparkPlan] = new Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = {
      CheckedOutputExec.in(plan).foreach { checked =>
        val setting = if (checked.failOnViolation) "error" else "warn"
        ExecutorJar.ensureOnExecutors(session.sparkContext, s"spark.colsem.invariants=$setting")
      }
      plan
    }
  }
}
