package io.colsem.guards

import java.util.concurrent.atomic.AtomicBoolean

import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf

import io.colsem.errors.ColsemErrors
import io.colsem.settings.ColsemConf
import io.colsem.shims.SparkShims
import io.colsem.vocabulary.UserQueries

/**
 * Check rule: no query is answered without colsem's rules, whatever turned Spark's single-pass
 * resolver on (a setting, the environment, a default). That resolver runs no injected Hints-batch
 * or Resolution rule; on Spark 4.1+ it runs the check rules (this one included) before it returns,
 * while Spark 4.0's runs none (docs/versions.md). So, for a plan the single-pass resolver resolved:
 *  - tentative mode and dual run: fail it as a feature the single-pass resolver does not support,
 *    and Spark resolves the query with the fixed-point analyzer, colsem's rules included;
 *  - forced mode (no fall-back): COLSEM_SINGLE_PASS_RESOLVER, or, under policy `warn` (the user's
 *    explicit choice), one warning per session and Spark's answer without colsem.
 * With the single-pass resolver off it returns after reading three settings.
 */
class SinglePassResolverGuard(session: SparkSession) extends (LogicalPlan => Unit) with Logging {
  private val warned = new AtomicBoolean(false)
  private val toldFallBack = new AtomicBoolean(false)

  override def apply(plan: LogicalPlan): Unit = {
    val conf = session.sessionState.conf
    SinglePassMode.of(conf) match {
      case SinglePassMode.Off =>
      case mode
          if ColsemConf.isEnabled(conf) && SparkShims.checkingSinglePassResult() &&
            UserQueries.isUserQuery(plan) =>
        // Back after a RESET: the next query goes to the fixed-point analyzer at once.
        SinglePassResolverGuard.overrideEnvironment(conf)
        refuse(mode, ColsemConf.SinglePassResolverPolicy.readFrom(conf))
      case _ =>
    }
  }

  private def refuse(mode: SinglePassMode, policy: String): Unit = mode match {
    case SinglePassMode.Forced(on) if policy == "warn" =>
      if (warned.compareAndSet(false, true)) {
        logWarning(ColsemErrors.singlePassResolverActive(on.key, on.source.describe, on.turnOff)
          .getMessage + " (spark.colsem.singlePassResolver.policy=warn: Spark answers without " +
          "colsem's rules; this is logged once per session)")
      }
    case SinglePassMode.Forced(on) =>
      throw ColsemErrors.singlePassResolverActive(on.key, on.source.describe, on.turnOff)
    case other =>
      if (toldFallBack.compareAndSet(false, true)) {
        val on = other.trigger.map(_.describe).mkString
        logInfo(s"Spark's single-pass resolver is on ($on); " +
          "colsem sends the queries it resolves back to the fixed-point analyzer, where " +
          "colsem's rules run (logged once per session).")
      }
      throw SparkShims.unsupportedBySinglePassResolver(
        "colsem's analyzer rules run only in the fixed-point analyzer")
  }
}

object SinglePassResolverGuard extends Logging {

  /**
   * A mode with a fall-back that the environment turned on (the platform's choice, not the
   * user's: SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY, SPARK_TESTING's dual run) is set off
   * in colsem's sessions, with one log line, so their queries go to the fixed-point analyzer once
   * instead of twice. A user's own setting of the key is kept.
   */
  def overrideEnvironment(conf: SQLConf): Unit =
    Seq(SinglePassMode.TentativeKey, SinglePassMode.DualRunKey).foreach { key =>
      if (!conf.contains(key) && SinglePassMode.effectiveValue(conf, key).contains("true")) {
        conf.setConfString(key, "false")
        logInfo(s"$key is true by default in this environment " +
          s"(${SinglePassMode.environmentOf(key).mkString}); colsem sets it to false in its " +
          "sessions, whose queries its rules resolve in the fixed-point analyzer.")
      }
    }

  /** What colsem does about `mode` under `policy`, for colsem_status(). */
  def action(mode: SinglePassMode, policy: String): String = mode match {
    case SinglePassMode.Off => "none: the fixed-point analyzer runs colsem's rules on every query"
    case SinglePassMode.Forced(_) if policy == "warn" =>
      "warns once per session; Spark answers without colsem's rules " +
        "(spark.colsem.singlePassResolver.policy=warn)"
    case SinglePassMode.Forced(on) =>
      s"refuses each query with COLSEM_SINGLE_PASS_RESOLVER (to turn it off: ${on.turnOff})"
    case _ =>
      "sends each query the single-pass resolver resolves back to the fixed-point analyzer, " +
        "which runs colsem's rules"
  }
}
