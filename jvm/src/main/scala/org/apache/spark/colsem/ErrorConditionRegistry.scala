package org.apache.spark.colsem

import java.net.URL

import scala.util.control.NonFatal

import org.apache.spark.{ErrorClassesJsonReader, SparkThrowableHelper}
import org.apache.spark.internal.Logging

/**
 * Adds colsem's error conditions to Spark's error-class registry. Needed because the analyzer
 * re-wraps every AnalysisException in an ExtendedAnalysisException that keeps the error class but
 * drops an explicit SQLSTATE, then looks the SQLSTATE up by class in this registry. Spark offers no
 * public way to add conditions (the registry is `private[spark]`, hence this package), so its map
 * is extended once per JVM; if that ever fails, colsem errors keep their class and message, and
 * their SQLSTATE stays in the message text (tests/test_spark_internals.py, run on every line, fails
 * then).
 */
object ErrorConditionRegistry extends Logging {

  /** The text of Spark's message for an error class and its parameters (no class, no SQLSTATE). */
  def sparkMessageText(errorClass: String, parameters: Map[String, String]): String =
    SparkThrowableHelper.errorReader.getErrorMessage(errorClass, parameters)

  def register(conditions: URL): Unit = synchronized {
    val reader = SparkThrowableHelper.errorReader
    try {
      val ours = new ErrorClassesJsonReader(Seq(conditions)).errorInfoMap
      if (!ours.keys.forall(reader.errorInfoMap.contains)) {
        val field = classOf[ErrorClassesJsonReader].getDeclaredField("errorInfoMap")
        field.setAccessible(true)
        field.set(reader, reader.errorInfoMap ++ ours)
      }
    } catch {
      case NonFatal(e) =>
        logWarning(s"colsem could not register its error conditions with Spark ($e); " +
          "getSqlState() on colsem errors may return null.")
    }
  }
}
