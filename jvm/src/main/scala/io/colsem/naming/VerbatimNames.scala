package io.colsem.naming

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal}
import org.apache.spark.sql.types.StringType

/**
 * Names taken from the SQL text as the user wrote it (the parser's origin of the item's
 * expression). Without text (DataFrame API) both fall back to [[CanonicalNames]].
 *  - `mysql` (MySQL/MariaDB): the item's text, spacing, case and comments kept; a string literal's
 *    value without quotes.
 *  - `sqlite`: the item's text exactly as written, quotes included.
 * A bare column keeps the name Spark gives it (the name as written, without qualifier) in both.
 */
object VerbatimNames {

  def mysql(e: Expression): String = e match {
    case Literal(v, StringType) if v != null && SqlText.of(e).exists(isQuotedString) => v.toString
    case _ => SqlText.ofItem(e).getOrElse(CanonicalNames.name(e))
  }

  def sqlite(e: Expression): String = SqlText.ofItem(e).getOrElse(CanonicalNames.name(e))

  private def isQuotedString(text: String): Boolean = {
    val t = text.trim
    t.length >= 2 && (t.head == '\'' || t.head == '"')
  }
}
