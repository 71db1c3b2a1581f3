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
      case ReturnAnswer(optimized)
          if Invariants.mode(session.sessionState.conf) != Invariants.Off =>
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
    val conf = session.sessionState.conf
    val before = Schemas.physical(analyzed.output)
    def problem(expected: Seq[PhysicalField], p: LogicalPlan): Option[String] = {
      val after = Schemas.physical(p.output)
      if (analyzed.isInstanceOf[Project])
        Schemas.exactProblem(expected, after, conf.caseSensitiveAnalysis)
      else Schemas.setProblem(expected, after, conf.caseSensitiveAnalysis)
    }
    if (problem(before, optimized).isDefined) {
      // Spark's own rewrites make fields nullable where they lose what analysis knew (uniform's
      // replacement, a count under a decorrelated outer join): a field may be as nullable as
      // Spark's optimizer alone makes it, and only an injected rule's widening is reported.
      val expected = OptimizerReplay.bySparkAlone(session, analyzed)
        .fold(before)(p => Schemas.loosenedBy(before, Schemas.physical(p.output)))
      problem(expected, optimized).foreach { found =>
        val culprit = OptimizerReplay.culprit(session, analyzed, problem(expected, _).isDefined)
          .getOrElse("the optimizer (replaying its batches did not reproduce the change)")
        Invariants.report(
          conf,
          Some(record),
          Violation.schemaChanged(
            5,
            culprit,
            found,
            Schemas.diff("analyzed", before, "optimized", Schemas.physical(optimized.output))))
      }
    }
  }
}
