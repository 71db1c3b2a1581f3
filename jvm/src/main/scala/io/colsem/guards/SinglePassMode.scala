package io.colsem.guards

import scala.util.Try

import org.apache.spark.sql.internal.SQLConf

/**
 * Which of Spark's analyzers may resolve a query in a session, as SQLConf resolves its
 * `spark.sql.analyzer.singlePassResolver.*` keys (a setting, else the entry's default, which may
 * come from the environment), in the order Spark 4.3's HybridAnalyzer reads them. Only the
 * fixed-point analyzer runs colsem's Hints-batch and Resolution rules.
 */
sealed trait SinglePassMode {

  /** The row `single_pass_resolver` of colsem_status(). */
  def name: String

  /** The key and value that turned the single-pass resolver on, and where the value came from. */
  def trigger: Option[SinglePassMode.Trigger]
}

object SinglePassMode {
  val Prefix = "spark.sql.analyzer.singlePassResolver."
  val EnabledKey = Prefix + "enabled"
  val TentativeKey = Prefix + "enabledTentatively"
  val DualRunKey = Prefix + "dualRunWithLegacy"
  val ReturnSinglePassKey = Prefix + "returnSinglePassResultInDualRun"
  val SampleRateKey = Prefix + "dualRunSampleRate"

  /** The environment variable SQLConf reads the tentative mode's default from (Spark 4.1+). */
  val TentativeVariable = "SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY"

  /** Where a key's effective value came from. */
  sealed trait Source { def describe: String }
  object Source {
    case object Setting extends Source { val describe = "setting" }
    final case class Environment(variable: String) extends Source {
      def describe: String = s"environment: $variable"
    }
    case object Default extends Source { val describe = "default" }
  }

  final case class Trigger(key: String, source: Source) {

    /** What the user (or the platform) does to turn the single-pass resolver off. */
    def turnOff: String = source match {
      case Source.Environment(variable) =>
        s"unset $variable where the driver starts, or SET $key=false"
      case _ => s"SET $key=false"
    }

    def describe: String = s"$key=true (${source.describe})"
  }

  /** Only the fixed-point analyzer: colsem's rules resolve every query. */
  case object Off extends SinglePassMode {
    val name = "off"
    val trigger: Option[Trigger] = None
  }

  /** `enabled`: every query goes to the single-pass resolver, with no fall-back. */
  final case class Forced(on: Trigger) extends SinglePassMode {
    val name = "forced"
    def trigger: Option[Trigger] = Some(on)
  }

  /** `enabledTentatively`: the single-pass resolver first, the fixed-point analyzer when it fails
   *  (a check rule's error included). */
  final case class Tentative(on: Trigger) extends SinglePassMode {
    val name = "tentative"
    def trigger: Option[Trigger] = Some(on)
  }

  /** `dualRunWithLegacy`: both analyzers; the fixed-point result is returned when the single-pass
   *  one fails with an explicitly unsupported feature. */
  final case class DualRun(on: Trigger) extends SinglePassMode {
    val name = "dual_run"
    def trigger: Option[Trigger] = Some(on)
  }

  def of(conf: SQLConf): SinglePassMode =
    if (isOn(conf, EnabledKey)) Forced(triggerOf(conf, EnabledKey))
    else if (isOn(conf, TentativeKey)) Tentative(triggerOf(conf, TentativeKey))
    else if (isOn(conf, DualRunKey)) DualRun(triggerOf(conf, DualRunKey))
    else Off

  /** A key's value as SQLConf resolves it: the session's setting, else the registered entry's
   *  default, which `getConfString(key)` reads as Spark does (`getConfString(key, "false")` would
   *  miss a default from the environment); None for a key this Spark does not register. */
  def effectiveValue(conf: SQLConf, key: String): Option[String] =
    if (registered(key)) Some(conf.getConfString(key)) else None

  /** The keys colsem reads and colsem_status() shows (tests/test_single_pass.py classifies every
   *  key of the installed Spark). */
  val Keys: Seq[String] = Seq(
    EnabledKey,
    TentativeKey,
    DualRunKey,
    ReturnSinglePassKey,
    SampleRateKey,
    Prefix + "runExtendedResolutionChecks")

  /** Whether this Spark has a single-pass resolver at all (3.5 has none). */
  def exists: Boolean = registered.contains(EnabledKey)

  /** Those of [[Keys]] this Spark registers (`getConfString` of another key throws). */
  private lazy val registered: Set[String] = {
    val fresh = new SQLConf
    Keys.filter(k => Try(fresh.getConfString(k)).isSuccess).toSet
  }

  private def isOn(conf: SQLConf, key: String): Boolean =
    effectiveValue(conf, key).exists(_.trim.equalsIgnoreCase("true"))

  private def triggerOf(conf: SQLConf, key: String): Trigger = {
    val source =
      if (conf.contains(key)) Source.Setting
      else environmentOf(key).map(v => Source.Environment(v.takeWhile(_ != '='))).getOrElse(
        Source.Default)
    Trigger(key, source)
  }

  /** The environment variable that turns `key`'s default on in this driver, as `NAME=value`. */
  def environmentOf(key: String): Option[String] = key match {
    case TentativeKey if sys.env.get(TentativeVariable).contains("true") =>
      Some(s"$TentativeVariable=true")
    case DualRunKey if sys.env.contains("SPARK_TESTING") =>
      Some(s"SPARK_TESTING=${sys.env("SPARK_TESTING")}")
    case _ => None
  }
}
