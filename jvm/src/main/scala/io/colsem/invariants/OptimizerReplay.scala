package io.colsem.invariants

import scala.util.control.NonFatal

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.colsem.PlanningInternals

/**
 * Names the optimizer rule that broke a schema, after the fact: runs the optimizer's batches again
 * on the analyzed plan, rule by rule, the way the optimizer does (each batch to its fixed point or
 * iteration limit), and returns the last rule that took the plan from keeping the schema to not
 * keeping it. Runs only when a check has already failed, so the success path costs nothing.
 */
object OptimizerReplay {

  def culprit(session: SparkSession, analyzed: LogicalPlan, broken: LogicalPlan => Boolean): Option[String] =
    try {
      var plan = analyzed.clone()
      var isBroken = broken(plan)
      var culprit: Option[String] = None
      PlanningInternals.optimizerBatches(session).foreach { case (batch, maxIterations, rules) =>
        var iteration = 0
        var changed = true
        while (changed && iteration < math.max(maxIterations, 1)) {
          val start = plan
          rules.foreach { rule =>
            val next = rule(plan)
            if (!next.fastEquals(plan)) {
              val nowBroken = broken(next)
              if (nowBroken && !isBroken) culprit = Some(s"optimizer rule ${rule.ruleName} (batch '$batch')")
              isBroken = nowBroken
              plan = next
            }
          }
          iteration += 1
          changed = !plan.fastEquals(start)
        }
      }
      if (isBroken) culprit else None
    } catch {
      case NonFatal(_) => None
    }
}
