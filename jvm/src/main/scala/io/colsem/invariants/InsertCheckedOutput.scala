package io.colsem.invariants

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, CommandResultExec, SparkPlan}
import org.apache.spark.sql.execution.colsem.PlanningInternals
import org.apache.spark.sql.execution.command.ExecutedCommandExec

/**
 * Invariant 4: puts [[CheckedOutputExec]] at the root of the query's own executed plan (above
 * AdaptiveSparkPlanExec under adaptive execution), once per query, from the post-transition half
 * of a columnar rule: Spark's preparations apply it to the whole plan, adaptive or not. Not for a
 * query an EXPLAIN describes: it never runs, and EXPLAIN shows Spark's plan as it is.
 */
class InsertCheckedOutput(session: SparkSession) extends ColumnarRule {
  override def postColumnarTransitions: Rule[SparkPlan] = new Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = {
      val mode = Invariants.mode(session.sessionState.conf)
      if (mode == Invariants.Off || plan.isInstanceOf[CheckedOutputExec] || isCommandResult(plan))
        return plan
      Invariants.record(session) match {
        case Some(record)
            if !record.hasReported && !PlanningInternals.explaining(session) &&
              QueryPlans.isOwn(plan, record) && record.claimRowCheck() =>
          CheckedOutputExec(plan, failOnViolation = mode == Invariants.Error)
        case _ => plan
      }
    }
  }

  /** A command's result (DESCRIBE, SHOW, ...): Spark's own rows, whose root node is how the
   *  spark-sql CLI, the Thrift server and Spark's golden files know to lay them out as a table. */
  private def isCommandResult(plan: SparkPlan): Boolean = plan match {
    case _: ExecutedCommandExec | _: CommandResultExec => true
    case _ => false
  }
}
