package io.colsem.invariants

import scala.util.control.NonFatal

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.colsem.PlanningInternals

/**
 * Runs the optimizer's batches again on the analyzed plan, rule by rule, the way the optimizer does
 * (each batch to its fixed point or iteration limit). Only after a check has failed, so the success
 * path costs nothing: to name the rule that broke a schema, and to see what Spark's own rules alone
 * make of it.
 */
object OptimizerReplay {

  /** The last rule that took the plan from keeping the schema to not keeping it. */
  def culprit(
      session: SparkSession,
      analyzed: LogicalPlan,
      broken: LogicalPlan => Boolean): Option[String] =
    try {
      var state = BreakingStep.start(broken(analyzed))
      replay(session, analyzed, _ => true) { (batch, rule, next) =>
        state = state.after(s"optimizer rule ${rule.ruleName} (batch '$batch')", broken(next))
      }
      state.result
    } catch {
      case NonFatal(_) => None
    }

  /** The analyzed plan optimized by Spark's own rules, without the rules extensions injected. */
  def bySparkAlone(session: SparkSession, analyzed: LogicalPlan): Option[LogicalPlan] =
    try {
      val injected = PlanningInternals.extensionOptimizerRuleClasses(session)
      Some(replay(session, analyzed, rule => !injected.contains(rule.getClass))((_, _, _) => ()))
    } catch {
      case NonFatal(_) => None
    }

  private def replay(
      session: SparkSession,
      analyzed: LogicalPlan,
      runs: Rule[LogicalPlan] => Boolean)(
      changed: (String, Rule[LogicalPlan], LogicalPlan) => Unit): LogicalPlan = {
    var plan = analyzed.clone()
    PlanningInternals.optimizerBatches(session).foreach { case (batch, maxIterations, rules) =>
      val running = rules.filter(runs)
      var iteration = 0
      var changing = true
      while (changing && iteration < math.max(maxIterations, 1)) {
        val start = plan
        running.foreach { rule =>
          val next = rule(plan)
          if (!next.fastEquals(plan)) {
            changed(batch, rule, next)
            plan = next
          }
        }
        iteration += 1
        changing = !plan.fastEquals(start)
      }
    }
    plan
  }
}
