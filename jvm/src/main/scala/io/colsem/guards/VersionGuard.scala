package io.colsem.guards

import io.colsem.jar.BuildInfo

/**
 * Refuses to inject anything into a Spark/Scala line the jar was not compiled for. Catalyst's
 * internals change between minor lines, and a mismatched jar loads fine and then fails every query
 * with NoSuchMethodError; one clear log line and an untouched session are far better.
 *
 * This code runs on the wrong line to report it, including the other Scala binary version (a 2.12
 * jar on Spark 4, a 2.13 jar on Spark 3.5). So it uses only what links on both: Java strings and
 * arrays, `+` concatenation (Scala 2.12 compiles `s"..."` to `StringContext.s(Seq)`, whose `Seq`
 * is another class on 2.13), `Option`, no collection methods and no lambdas or by-name arguments
 * (2.12 marks them `scala.Serializable`, which 2.13 does not have): [[report]] logs through SLF4J,
 * which every Spark line ships, not through Spark's `Logging` and its by-name messages.
 */
object VersionGuard {

  private val reported = new java.util.concurrent.atomic.AtomicBoolean(false)

  /** Logs the mismatch once per JVM (both ways in reach a mismatched jar, each session too), as
   *  the entry class's logger, so the line reads
   *  `ERROR ColsemExtensions: [COLSEM_INCOMPATIBLE_SPARK] ...`. */
  def report(problem: String): Unit = {
    if (reported.compareAndSet(false, true)) {
      org.slf4j.LoggerFactory.getLogger("io.colsem.ColsemExtensions").error(problem)
    }
  }

  /** "4.3.0" -> "4.3", "2.13.18" -> "2.13", "4.3.0-SNAPSHOT" -> "4.3". */
  def majorMinor(version: String): String = {
    val parts = version.split("[.-]")
    if (parts.length >= 2) parts(0) + "." + parts(1) else version
  }

  /** Why colsem must not be applied here, or None when the running line is the built one. */
  def mismatch(built: BuildInfo, runningSpark: String, runningScala: String): Option[String] = {
    val sparkOk = majorMinor(runningSpark) == built.sparkLine
    val scalaOk = majorMinor(runningScala) == built.scalaBinary
    if (sparkOk && scalaOk) {
      None
    } else {
      Some("[COLSEM_INCOMPATIBLE_SPARK] colsem " + built.colsemVersion + " was built for Spark " +
        built.sparkLine + " (Scala " + built.scalaBinary + ") but this is Spark " + runningSpark +
        " (Scala " + runningScala + "). colsem injected nothing into this session; " +
        "queries run as in vanilla Spark. Use the colsem build for Spark " +
        majorMinor(runningSpark) + " / Scala " + majorMinor(runningScala) + ", or pyspark " +
        built.pysparkSupported + ".")
    }
  }

  def runningSpark: String = org.apache.spark.SPARK_VERSION

  def runningScala: String = scala.util.Properties.versionNumberString
}
