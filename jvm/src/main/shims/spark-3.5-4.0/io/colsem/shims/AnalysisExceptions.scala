package io.colsem.shims

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.parser.ParseException
import org.apache.spark.sql.catalyst.trees.Origin

/** colsem's AnalysisExceptions, for Spark 3.5 and 4.0, whose AnalysisException has no SQLSTATE
 *  argument and looks it up by error class in Spark's registry: the exception says its own
 *  SQLSTATE instead (re-wrapped copies find it in the registry colsem extends at start-up). */
object AnalysisExceptions {

  /** A refusal of `command` while it is parsed, under colsem's error class: the class, SQLSTATE
   *  and message come from Spark's registry, which colsem extends at start-up. */
  def parseRefusal(
      command: String,
      errorClass: String,
      parameters: Map[String, String]): ParseException =
    new ParseException(Some(command), Origin(), Origin(), errorClass, parameters)

  def create(
      message: String,
      errorClass: String,
      sqlState: String,
      parameters: Map[String, String],
      origin: Option[Origin]): AnalysisException =
    new ColsemAnalysisException(message, errorClass, sqlState, parameters, origin)

  private final class ColsemAnalysisException(
      message: String,
      errorClass: String,
      sqlState: String,
      parameters: Map[String, String],
      origin: Option[Origin])
    extends AnalysisException(
      message,
      origin.flatMap(_.line),
      origin.flatMap(_.startPosition),
      None,
      Some(errorClass),
      parameters,
      origin.map(_.getQueryContext).getOrElse(Array.empty)) {
    override def getSqlState: String = sqlState
  }
}
