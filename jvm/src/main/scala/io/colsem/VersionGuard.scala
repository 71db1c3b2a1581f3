package io.colsem

/**
 * Refuses to inject anything into a Spark/Scala line the jar was not compiled for. Catalyst's
 * internals change between minor lines, and a mismatched jar loads fine and then fails every query
 * with NoSuchMethodError; one clear log line and an untouched session are far better.
 */
object VersionGuard {

  /** "4.3.0" -> "4.3", "2.13.18" -> "2.13", "4.3.0-SNAPSHOT" -> "4.3". */
  def majorMinor(version: String): String = {
    // Plain array indexing: Scala collection methods differ in bytecode between 2.12 and 2.13,
    // and this code must run on the wrong line to report it.
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
      Some(s"[COLSEM_INCOMPATIBLE_SPARK] colsem ${built.colsemVersion} was built for Spark " +
        s"${built.sparkLine} (Scala ${built.scalaBinary}) but this is Spark $runningSpark " +
        s"(Scala $runningScala). colsem injected nothing into this session; queries run as in " +
        s"vanilla Spark. Use the colsem build for Spark ${majorMinor(runningSpark)} / Scala " +
        s"${majorMinor(runningScala)}, or pyspark ${built.pysparkSupported}.")
    }
  }

  def runningSpark: String = org.apache.spark.SPARK_VERSION

  def runningScala: String = scala.util.Properties.versionNumberString
}
