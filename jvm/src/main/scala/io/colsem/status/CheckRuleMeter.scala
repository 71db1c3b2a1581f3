package io.colsem.status

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * For `bench` only, never on a query's path: the time each check rule colsem injects takes on
 * analyzed plans. Spark's RuleExecutor meters analyzer and optimizer rules but not the check rules,
 * which run on every query; bench's rule table lists them from here. Each rule runs on every plan
 * in turn, `rounds` times; its figure is the fastest round's total.
 */
object CheckRuleMeter {

  private val Colsem = "io.colsem."

  /** Nanoseconds per pass over `plans` of each of colsem's check rules in `session`, by class. */
  def nanosPerPass(
      session: SparkSession,
      plans: java.util.List[LogicalPlan],
      rounds: Int): java.util.Map[String, java.lang.Long] = {
    val all = (0 until plans.size).map(plans.get)
    val out = new java.util.TreeMap[String, java.lang.Long]()
    session.sessionState.analyzer.extendedCheckRules
      .filter(_.getClass.getName.startsWith(Colsem))
      .foreach { rule =>
        val best = (1 to math.max(rounds, 1)).map { _ =>
          val start = System.nanoTime()
          all.foreach(rule)
          System.nanoTime() - start
        }.min
        out.put(rule.getClass.getName.stripSuffix("$"), java.lang.Long.valueOf(best))
      }
    out
  }
}
