package io.colsem.invariants

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project, ReturnAnswer}
import org.apache.spark.sql.execution.{SparkPlan, SparkStrategy}

/**
 * Invariant 5: logical optimization keeps the analyzed schema, exactly when the analyzed root is a
 * projection, as a set otherwise. A planner strategy because planning is the first moment after
 * optimization that sees the whole optimized plan: QueryExecution plans `ReturnAnswer(optimized)`
 * and tries the injected strategies first. It plans nothing (returns Nil). On a violation the
 * optimizer is replayed to name the rule ([[OptimizerReplay]]).
 */
class CheckOptimizedSchema(session: SparkSession) extends SparkStrategy {

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = {
    plan match {
      case ReturnAnswer(optimized) if Invariants.mode(session.sessionState.conf) != Invariants.Off =>
        for {
          record <- Invariants.record(session)
          _ = record.rethrowFailure()
          if record.claimOptimized(optimized)
          analyzed <- record.analyzedPlan if !record.hasReported
        } check(record, analyzed, optimized)
      case _ =>
    }
    Nil
  }

  private def check(record: QueryRecord, analyzed: LogicalPlan, optimized: LogicalPlan): Unit = {
    val before = Schemas.physical(analyzed.output)
    def problem(p: LogicalPlan): Option[String] = {
      val after = Schemas.physical(p.output)
      if (analyzed.isInstanceOf[Project]) Schemas.exactProblem(before, after)
      else Schemas.setProblem(before, after)
    }
    problem(optimized).foreach { found =>
      val culprit = OptimizerReplay.culprit(session, analyzed, problem(_).isDefined)
        .getOrElse("the optimizer (replaying its batches did not reproduce the change)")
      Invariants.report(session.sessionState.conf, Some(record), Violation.schemaChanged(5,
        culprit, found,
        Schemas.diff("analyzed", before, "optimized", Schemas.physical(optimized.output))))
    }
  }
}
