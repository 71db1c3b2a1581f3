package io.colsem.naming

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal}
import org.apache.spark.sql.catalyst.trees.CurrentOrigin
import org.apache.spark.sql.types.BooleanType

/**
 * The SQL text an expression was parsed from: the parser records the whole statement
 * (`origin.sqlText`) and the expression's first and last character (inclusive). DataFrame-API
 * expressions have no text.
 */
object SqlText {

  /** (statement, start, stop inclusive) when the expression came from SQL text. */
  def span(e: Expression): Option[(String, Int, Int)] = {
    val o = e.origin
    for {
      text <- o.sqlText
      start <- o.startIndex
      stop <- o.stopIndex
      if start >= 0 && start <= stop && stop < text.length && spells(e, text, start, stop)
    } yield (text, start, stop)
  }

  /**
   * Whether a position can be the expression's own. Spark's parser (4.1, for one) returns the
   * shared `Literal.TrueLiteral` and `FalseLiteral` for `true` and `false`, whose origin is that
   * of whichever statement first made them: theirs counts only in the statement being analyzed
   * (the plan node's origin, which the naming rule runs under) and where the text spells them.
   */
  private def spells(e: Expression, text: String, start: Int, stop: Int): Boolean = e match {
    case Literal(v: Boolean, BooleanType) =>
      CurrentOrigin.get.sqlText.contains(text) &&
      text.substring(start, stop + 1).trim.equalsIgnoreCase(v.toString)
    case _ => true
  }

  /**
   * The span of the expression with its operands: the parser gives a predicate (`x BETWEEN ...`,
   * `x IS NULL`, `x IN (...)`) the position of its predicate part only, so the operand before it
   * widens it. A node without a position of its own takes its operands' span.
   */
  def fullSpan(e: Expression): Option[(String, Int, Int)] = {
    val own = span(e)
    val parts = own.toSeq ++ e.children.flatMap(fullSpan)
    parts.headOption.map { case (text, _, _) =>
      val same = parts.filter(_._1 == text)
      (text, same.map(_._2).min, same.map(_._3).max)
    }
  }

  /** The expression's text exactly as written. */
  def of(e: Expression): Option[String] = span(e).map { case (t, s, e1) => t.substring(s, e1 + 1) }

  /**
   * The text of a whole SELECT item whose expression is `e`: the expression's text, widened over
   * parentheses that enclose exactly it (the parser keeps the inner expression's position only).
   * A SELECT item sits between SELECT/DISTINCT/`,` and `,`/FROM/end, so a `(` just before it and a
   * `)` just after it can only be its own parentheses.
   */
  def ofItem(e: Expression): Option[String] = itemSpan(e).map { case (text, s, e1) =>
    text.substring(s, e1 + 1)
  }

  /** The span [[ofItem]] reads. */
  def itemSpan(e: Expression): Option[(String, Int, Int)] = fullSpan(e).map { case (text, s0, e0) =>
    var (start, stop) = balanced(text, s0, e0)
    var widening = true
    while (widening) {
      val before = skipBackward(text, start - 1)
      val after = skipForward(text, stop + 1)
      if (before >= 0 && after < text.length && text.charAt(before) == '(' && text.charAt(
            after) == ')') {
        start = before
        stop = after
      } else {
        widening = false
      }
    }
    (text, start, stop)
  }

  /**
   * The span widened over the other half of each parenthesis it holds alone: an operand has the
   * position of what is inside its parentheses, so `(a > 1) IS TRUE` spans `a > 1) IS TRUE`.
   */
  private def balanced(text: String, s: Int, e: Int): (Int, Int) = {
    var start = s
    var stop = e
    var (opened, closed) = unmatched(text, s, e)
    while (closed > 0) {
      val before = skipBackward(text, start - 1)
      if (before >= 0 && text.charAt(before) == '(') { start = before; closed -= 1 }
      else closed = 0
    }
    while (opened > 0) {
      val after = skipForward(text, stop + 1)
      if (after < text.length && text.charAt(after) == ')') { stop = after; opened -= 1 }
      else opened = 0
    }
    (start, stop)
  }

  /** (`(` without their `)`, `)` without their `(`) in text[s..e], quotes and comments skipped. */
  private def unmatched(text: String, s: Int, e: Int): (Int, Int) = {
    var depth = 0
    var closed = 0
    var i = s
    while (i <= e) {
      val c = text.charAt(i)
      if (c == '\'' || c == '"' || c == '`') i = closingQuote(text, i) + 1
      else if (text.startsWith("/*", i)) {
        val end = text.indexOf("*/", i + 2)
        i = if (end < 0) e + 1 else end + 2
      } else if (text.startsWith("--", i)) {
        while (i <= e && text.charAt(i) != '\n') i += 1
      } else {
        if (c == '(') depth += 1
        else if (c == ')') { if (depth > 0) depth -= 1 else closed += 1 }
        i += 1
      }
    }
    (depth, closed)
  }

  /** The last character of the comments right after `stop` (white space between them skipped),
   *  or `stop` when none follows. */
  def overTrailingComments(text: String, stop: Int): Int = {
    var last = stop
    var i = stop + 1
    var more = true
    while (more) {
      while (i < text.length && Character.isWhitespace(text.charAt(i))) i += 1
      if (text.startsWith("/*", i)) {
        val end = text.indexOf("*/", i + 2)
        last = if (end < 0) text.length - 1 else end + 1
        i = last + 1
      } else if (text.startsWith("--", i)) {
        while (i < text.length && text.charAt(i) != '\n') i += 1
        last = i - 1
      } else {
        more = false
      }
    }
    last
  }

  /** Index of the first character at or after i that is not white space or inside a comment. */
  def skipForward(text: String, from: Int): Int = {
    var i = from
    var moved = true
    while (moved && i < text.length) {
      moved = false
      while (i < text.length && Character.isWhitespace(text.charAt(i))) { i += 1; moved = true }
      if (text.startsWith("--", i)) {
        while (i < text.length && text.charAt(i) != '\n') i += 1
        moved = true
      } else if (text.startsWith("/*", i)) {
        val end = text.indexOf("*/", i + 2)
        i = if (end < 0) text.length else end + 2
        moved = true
      }
    }
    i
  }

  /** Index of the last character at or before i that is not white space or a block comment. */
  def skipBackward(text: String, from: Int): Int = {
    var i = from
    var moved = true
    while (moved && i >= 0) {
      moved = false
      while (i >= 0 && Character.isWhitespace(text.charAt(i))) { i -= 1; moved = true }
      if (i >= 1 && text.charAt(i) == '/' && text.charAt(i - 1) == '*') {
        val begin = text.lastIndexOf("/*", i - 2)
        i = if (begin < 0) -1 else begin - 1
        moved = true
      }
    }
    i
  }

  /**
   * The text between two sibling expressions (an infix operator as written), with comments and the
   * operands' own parentheses dropped and white space collapsed; None without text or when the
   * operands are not in order.
   */
  def between(left: Expression, right: Expression): Option[String] =
    for {
      (text, _, leftStop) <- span(left)
      (rightText, rightStart, _) <- span(right)
      if (rightText eq text) || rightText == text
      if leftStop < rightStart
    } yield collapse(withoutComments(text.substring(leftStop + 1, rightStart)).replaceAll(
      "[()]",
      " "))

  /** Whether a function node came from operator syntax (`x BETWEEN a AND b`): an operand starts
   *  before the node's own position. */
  def isInfix(e: Expression): Boolean = span(e).exists { case (text, start, _) =>
    e.children.flatMap(fullSpan).exists(c => c._1 == text && c._2 < start)
  }

  def withoutComments(s: String): String =
    s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ")

  /** The index of the quote closing the one at `open` (a doubled quote or a backslash escapes). */
  private def closingQuote(text: String, open: Int): Int = {
    val q = text.charAt(open)
    var i = open + 1
    while (i < text.length) {
      val c = text.charAt(i)
      if (c == '\\' && q != '`') i += 2
      else if (c == q && i + 1 < text.length && text.charAt(i + 1) == q) i += 2
      else if (c == q) return i
      else i += 1
    }
    text.length - 1
  }

  def collapse(s: String): String = s.trim.replaceAll("\\s+", " ")
}
