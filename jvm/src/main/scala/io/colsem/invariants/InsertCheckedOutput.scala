package io.colsem.invariants

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{ColumnarRule, CommandResultExec, SparkPlan}
import org.apache.spark.sql.execution.colsem.PlanningInternals
import org.apache.spark.sql.execution.command.{DataWritingCommandExec, ExecutedCommandExec}
import org.apache.spark.sql.execution.datasources.WriteFilesExec
import org.apache.spark.sql.execution.datasources.v2.V2TableWriteExec

/**
 * Invariant 4: puts [[CheckedOutputExec]] at the root of the query's own executed plan (above
 * AdaptiveSparkPlanExec under adaptive execution), once per query, from the post-transition half
 * of a columnar rule: Spark's preparations apply it to the whole plan, adaptive or not. Not for a
 * query an EXPLAIN describes: it never runs, and EXPLAIN shows Spark's plan as it is.
 *
 * A plan that writes keeps its write node at the root, with the check on the rows it writes:
 * Spark reads a write's metrics from the root (a micro-batch's `sink.numOutputRows` only from a
 * root `WriteToDataSourceV2Exec`; a command's metrics from its node), and the rows that matter
 * are the written ones. A planned file write checks below `WriteFilesExec`, which Spark's file
 * writer runs directly.
 * {{{
 *   WriteToDataSourceV2Exec              WriteToDataSourceV2Exec
 *   +- <query>               =>          +- CheckedOutputExec
 *                                           +- <query>
 * }}}
 * Golden: none (an executed plan, which the golden files do not hold):
 *   tests/test_streaming.py::test_stream_progress_is_vanillas_under_every_invariants_setting
 */
class InsertCheckedOutput(session: SparkSession) extends ColumnarRule {
  override def postColumnarTransitions: Rule[SparkPlan] = new Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = {
      val mode = Invariants.mode(session.sessionState.conf)
      if (mode == Invariants.Off || CheckedOutputExec.in(plan).isDefined || isCommandResult(plan))
        return plan
      Invariants.record(session) match {
        case Some(record)
            if !record.hasReported && !PlanningInternals.explaining(session) &&
              QueryPlans.isOwn(plan, record) && record.claimRowCheck() =>
          checked(plan, failOnViolation = mode == Invariants.Error)
        case _ => plan
      }
    }
  }

  private def checked(plan: SparkPlan, failOnViolation: Boolean): SparkPlan = {
    def check(rows: SparkPlan) = CheckedOutputExec(rows, failOnViolation)
    plan match {
      case write: V2TableWriteExec => write.withNewChildren(Seq(check(write.child)))
      case write @ DataWritingCommandExec(_, files: WriteFilesExec) =>
        write.copy(child = files.withNewChildren(Seq(check(files.child))))
      case write: DataWritingCommandExec => write.copy(child = check(write.child))
      case query => check(query)
    }
  }

  /** A command's result (DESCRIBE, SHOW, ...): Spark's own rows, whose root node is how the
   *  spark-sql CLI, the Thrift server and Spark's golden files know to lay them out as a table. */
  private def isCommandResult(plan: SparkPlan): Boolean = plan match {
    case _: ExecutedCommandExec | _: CommandResultExec => true
    case _ => false
  }
}
