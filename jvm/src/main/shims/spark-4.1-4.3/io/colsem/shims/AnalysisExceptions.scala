package io.colsem.shims

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.parser.ParseException
import org.apache.spark.sql.catalyst.trees.Origin

/** colsem's AnalysisExceptions, for Spark 4.1 and later, whose AnalysisException takes the
 *  SQLSTATE as a constructor argument. */
object AnalysisExceptions {

  /** A refusal of `command` while it is parsed, under colsem's error class: the class, SQLSTATE
   *  and message come from Spark's registry, which colsem extends at start-up. */
  def parseRefusal(
      command: String,
      errorClass: String,
      parameters: Map[String, String]): ParseException =
    new ParseException(Some(command), Origin(), errorClass, parameters)

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
      origin.map(_.getQueryContext).getOrElse(Array.empty),
      Some(sqlState),
      None)
}
