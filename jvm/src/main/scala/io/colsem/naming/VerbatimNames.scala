package io.colsem.naming

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal, UnaryPositive}
import org.apache.spark.sql.types.{BooleanType, StringType}

/**
 * Names taken from the SQL text as the user wrote it (the parser's origin of the item's
 * expression). Without text (DataFrame API) both fall back to [[CanonicalNames]].
 *  - `mysql` (MySQL/MariaDB): the item's text exactly as written, spacing, line breaks, comments
 *    and case kept (MariaDB names it from the statement's bytes); a string literal's value without
 *    quotes; NULL, TRUE and FALSE in upper case; a unary plus dropped.
 *  - `sqlite`: the item's text exactly as written, quotes included, with the comments that follow
 *    it before the next `,` or FROM (SQLite's span runs to the next token).
 * A bare column keeps the name Spark gives it (the name as written, without qualifier) in both.
 */
object VerbatimNames {

  def mysql(e: Expression): String = e match {
    case Literal(v, StringType) if v != null && SqlText.of(e).exists(isQuotedString) => v.toString
    // MariaDB names these by value, in upper case, however they were written.
    case Literal(null, _) => "NULL"
    case Literal(v: Boolean, BooleanType) => if (v) "TRUE" else "FALSE"
    // Its parser drops a unary plus.
    case UnaryPositive(child) => mysql(child)
    case _ => SqlText.ofItem(e).getOrElse(CanonicalNames.name(e))
  }

  def sqlite(e: Expression): String = SqlText.itemSpan(e).map { case (text, start, stop) =>
    text.substring(start, SqlText.overTrailingComments(text, stop) + 1)
  }.getOrElse(CanonicalNames.name(e))

  private def isQuotedString(text: String): Boolean = {
    val t = text.trim
    t.length >= 2 && (t.head == '\'' || t.head == '"')
  }
}
