package io.colsem.naming

import java.util.Locale

import org.apache.spark.sql.catalyst.analysis.{
  UnresolvedAttribute, UnresolvedExtractValue, UnresolvedFunction, UnresolvedStar
}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types.{BooleanType, DecimalType, NumericType, StringType}

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * The `canonical` name of an expression, computed from the expression as parsed (before
 * resolution), following DataFusion's output-field-name rules (docs/naming.md lists every rule
 * with an example):
 *  1. a column is its name without qualifier: `t1.id` -> `id`;
 *  2. a function name is lower case, its arguments joined by `, `: `ABS(a,b)` -> `abs(a, b)`;
 *  3. a string literal is its value without quotes: `'foo'` -> `foo`;
 *  4. an operator expression is wrapped in parentheses, with spaces around the operator:
 *     `1+2` -> `(1 + 2)`, `-2` -> `(- 2)`, `NOT a` -> `(NOT a)`;
 *  5. the operator or function the user wrote is kept (`count(*)`, `<>` vs `!=`, `||`, BETWEEN,
 *     CAST), keywords in upper case;
 *  6. subqueries, lambdas and windows are shown as written (white space collapsed), not as
 *     placeholders.
 */
object CanonicalNames {

  def name(e: Expression): String = render(e)

  private def render(e: Expression): String = e match {
    case c: LateralAliasCandidate => c.attribute.nameParts.last
    case a: UnresolvedAttribute => a.nameParts.last
    case v: UnresolvedNamedLambdaVariable => v.nameParts.mkString(".")
    case v: NamedLambdaVariable => v.name
    case a: Attribute => a.name
    case _: UnresolvedStar => "*"
    case Alias(child, _) => render(child)
    case l: Literal => literal(l)

    // Operators whose text tells which spelling the user chose (`<>` or `!=`, `=` or `==`).
    // `a <> b`, `a NOT IN (...)` and the like: one node pair with one position (a prefix
    // `NOT (a = b)` has a position of its own and falls through to the plain NOT).
    case n @ Not(eq @ EqualTo(l, r)) if sameSpan(n, eq) => binary(n, l, r, "<>")
    case n @ Not(eq @ EqualNullSafe(l, r)) if sameSpan(n, eq) => binary(n, l, r, "IS DISTINCT FROM")
    case n @ Not(in @ In(v, list)) if sameSpan(n, in) =>
      s"(${render(v)} NOT IN (${list.map(render).mkString(", ")}))"
    case n @ Not(in @ InSubquery(values, q)) if sameSpan(n, in) =>
      s"(${tuple(values)} NOT IN ${subquery(q)})"
    case n @ Not(u: UnresolvedFunction) if sameSpan(n, u) && infix(u).contains("between") =>
      betweenText(u, "NOT BETWEEN")
    // Spark 3.5 parses `x [NOT] BETWEEN a AND b` into `x >= a AND x <= b` over one `x` object,
    // every node with the predicate's position (written comparisons have positions of their own).
    case n @ Not(a @ And(GreaterThanOrEqual(v, lo), LessThanOrEqual(v2, hi)))
        if (v eq v2) && sameSpan(n, a) && parsedBetween(a) =>
      s"(${render(v)} NOT BETWEEN ${render(lo)} AND ${render(hi)})"
    case a @ And(GreaterThanOrEqual(v, lo), LessThanOrEqual(v2, hi))
        if (v eq v2) && parsedBetween(a) =>
      s"(${render(v)} BETWEEN ${render(lo)} AND ${render(hi)})"
    case n @ Not(like @ Like(l, r, esc)) if sameSpan(n, like) => this.like(l, r, esc, "NOT LIKE")
    case n @ Not(rlike @ RLike(l, r)) if sameSpan(n, rlike) => binary(n, l, r, "NOT RLIKE")
    case Not(child) => s"(NOT ${render(child)})"
    case IsNull(child) => s"(${render(child)} IS NULL)"
    case IsNotNull(child) => s"(${render(child)} IS NOT NULL)"
    case UnaryMinus(child, _) => s"(- ${render(child)})"
    case UnaryPositive(child) => s"(+ ${render(child)})"
    case BitwiseNot(child) => s"(~ ${render(child)})"
    case Like(l, r, esc) => like(l, r, esc, "LIKE")
    case ILike(l, r, esc) => like(l, r, esc, "ILIKE")
    case RLike(l, r) => binary(e, l, r, "RLIKE")
    case In(v, list) => s"(${render(v)} IN (${list.map(render).mkString(", ")}))"
    case InSubquery(values, q) => s"(${tuple(values)} IN ${subquery(q)})"
    case Concat(Seq(l, r))
        if SqlText.between(l, r).exists(_.contains("||")) || SqlText.of(e).isEmpty =>
      binary(e, l, r, "||")
    case b: BinaryOperator => binary(b, b.left, b.right, b.symbol)

    case c: Cast =>
      val kind = if (c.evalMode == EvalMode.TRY) "TRY_CAST" else "CAST"
      s"$kind(${render(c.child)} AS ${c.dataType.sql})"
    case c: CaseWhen => caseWhen(c)

    case u: UnresolvedFunction => function(u)
    case s: ScalarSubquery => subquery(s)
    case x: Exists => s"EXISTS ${subquery(x)}"
    case l: LambdaFunction =>
      val params = l.arguments.map(render)
      val head = if (params.size == 1) params.head else params.mkString("(", ", ", ")")
      s"$head -> ${render(l.function)}"
    case UnresolvedWindowExpression(f, spec) => s"${render(f)} OVER ${spec.name}"
    case WindowExpression(f, spec) => s"${render(f)} OVER (${window(spec)})"
    case UnresolvedExtractValue(child, key) => s"${render(child)}[${render(key)}]"
    case s: SortOrder => sortOrder(s)
    case StringLocate(sub, str, Literal(1, _))
        if SqlText.of(e).exists(startsWithWord(_, "position")) =>
      s"position(${render(sub)} IN ${render(str)})"
    case t: StringTrim => trim("BOTH", t.srcStr, t.trimStr)
    case t: StringTrimLeft => trim("LEADING", t.srcStr, t.trimStr)
    case t: StringTrimRight => trim("TRAILING", t.srcStr, t.trimStr)

    // Anything else (a few built at parse time, such as POSITION's locate): Spark's function name,
    // lower case, with the rendered arguments.
    case other =>
      s"${other.prettyName.toLowerCase(Locale.ROOT)}(${other.children.map(render).mkString(", ")})"
  }

  private def startsWithWord(text: String, word: String): Boolean =
    text.trim.toLowerCase(Locale.ROOT).startsWith(word)

  private def trim(where: String, str: Expression, chars: Option[Expression]): String =
    chars match {
      case Some(c) => s"trim($where ${render(c)} FROM ${render(str)})"
      case None if where == "BOTH" => s"trim(${render(str)})"
      case None => s"trim($where FROM ${render(str)})"
    }

  private def sameSpan(a: Expression, b: Expression): Boolean = SqlText.span(a) == SqlText.span(b)

  private def parsedBetween(a: And): Boolean =
    SqlText.span(a).isDefined && sameSpan(a, a.left) && sameSpan(a, a.right)

  private def literal(l: Literal): String = l match {
    case Literal(null, _) => "NULL"
    case Literal(v, StringType) => v.toString
    case Literal(v: Boolean, BooleanType) => v.toString
    case Literal(_, _: NumericType | _: DecimalType) =>
      val text = l.toString
      if (text.startsWith("-")) s"(- ${text.substring(1)})" else text
    case other => other.sql
  }

  /** `(left op right)`, the operator as written between the operands when there is text. */
  private def binary(node: Expression, l: Expression, r: Expression, default: String): String =
    s"(${render(l)} ${operator(l, r, default)} ${render(r)})"

  private def operator(l: Expression, r: Expression, default: String): String =
    SqlText.between(l, r).filter(_.nonEmpty).map { written =>
      if (written.exists(_.isLetter)) written.toUpperCase(Locale.ROOT) else written
    }.getOrElse(default)

  private def like(l: Expression, r: Expression, escape: Char, op: String): String = {
    val esc = if (escape == '\\') "" else s" ESCAPE $escape"
    s"(${render(l)} ${operator(l, r, op)} ${render(r)}$esc)"
  }

  private def tuple(values: Seq[Expression]): String =
    if (values.size == 1) render(values.head) else values.map(render).mkString("(", ", ", ")")

  /** Whether an UnresolvedFunction came from operator syntax (`x BETWEEN a AND b`): Some(lower-case
   *  name) then. */
  private def infix(u: UnresolvedFunction): Option[String] =
    if (SqlText.isInfix(u)) Some(u.nameParts.last.toLowerCase(Locale.ROOT)) else None

  private def betweenText(u: UnresolvedFunction, op: String): String = u.arguments match {
    case Seq(v, lo, hi) => s"(${render(v)} $op ${render(lo)} AND ${render(hi)})"
    case args => s"between(${args.map(render).mkString(", ")})"
  }

  /** The DataFrame API builds its operators as internal calls of functions named by the operator
   *  (`col("a") + 1` is `+`(a, 1), `=!=` is `!`(`=`(a, b))). */
  private val BinaryOperators = Set(
    "+",
    "-",
    "*",
    "/",
    "%",
    "=",
    "==",
    "<=>",
    "<",
    "<=",
    ">",
    ">=",
    "!=",
    "<>",
    "&",
    "|",
    "^",
    "and",
    "or",
    "div")

  private def internalOperator(u: UnresolvedFunction): Option[String] = {
    val fn = u.nameParts.last.toLowerCase(Locale.ROOT)
    // negative(x), isnull(x), in(x, ...) are operators when the DataFrame API built them (no text).
    val api = SparkShims.isInternalCall(u) || SqlText.span(u).isEmpty
    (fn, u.arguments) match {
      case (op, Seq(l, r)) if BinaryOperators.contains(op) =>
        val shown = if (op.exists(_.isLetter)) op.toUpperCase(Locale.ROOT) else op
        Some(s"(${render(l)} $shown ${render(r)})")
      case ("!" | "not", Seq(eq: UnresolvedFunction))
          if eq.nameParts.last == "=" && eq.arguments.size == 2 =>
        Some(s"(${render(eq.arguments.head)} <> ${render(eq.arguments(1))})")
      case ("!" | "not", Seq(c)) => Some(s"(NOT ${render(c)})")
      case ("negative", Seq(c)) if api => Some(s"(- ${render(c)})")
      case ("positive", Seq(c)) if api => Some(s"(+ ${render(c)})")
      case ("~", Seq(c)) => Some(s"(~ ${render(c)})")
      case ("isnull", Seq(c)) if api => Some(s"(${render(c)} IS NULL)")
      case ("isnotnull", Seq(c)) if api => Some(s"(${render(c)} IS NOT NULL)")
      case ("in", v +: list) if api =>
        Some(s"(${render(v)} IN (${list.map(render).mkString(", ")}))")
      case (op @ ("like" | "rlike" | "ilike"), Seq(l, r)) if api =>
        Some(s"(${render(l)} ${op.toUpperCase(Locale.ROOT)} ${render(r)})")
      case _ => None
    }
  }

  private def function(u: UnresolvedFunction): String = {
    val fn = u.nameParts.map(_.toLowerCase(Locale.ROOT)).mkString(".")
    if (infix(u).contains("between")) return betweenText(u, "BETWEEN")
    internalOperator(u) match {
      case Some(op) if u.filter.isEmpty && !u.isDistinct => return op
      case _ =>
    }
    val args = u.arguments.map {
      // The parser turns count(*) into count(1): its 1 has no text of its own.
      case l @ Literal(1, _) if fn == "count" && starred(u, l) => "*"
      case a => render(a)
    }
    val body = fn match {
      case "extract"
          if args.size == 2 && SqlText.of(u).exists(
            _.toUpperCase(Locale.ROOT).contains(" FROM ")) =>
        s"${args.head} FROM ${args(1)}"
      case _ => (if (u.isDistinct) "DISTINCT " else "") + args.mkString(", ")
    }
    val ordered =
      if (SparkShims.orderingWithinGroup(u).isEmpty) ""
      else
        " WITHIN GROUP (ORDER BY " +
          s"${SparkShims.orderingWithinGroup(u).map(sortOrder).mkString(", ")})"
    val filter = u.filter.map(f => s" FILTER (WHERE ${render(f)})").getOrElse("")
    val nulls = if (SparkShims.ignoresNulls(u)) " IGNORE NULLS" else ""
    s"$fn($body)$ordered$filter$nulls"
  }

  /** Whether the literal 1 argument of count stands for a `*`: in SQL the parser gives it the
   *  call's position; the DataFrame API's count("*") has no text at all. */
  private def starred(u: UnresolvedFunction, one: Literal): Boolean =
    (SqlText.span(one), SqlText.span(u)) match {
      case (Some((_, s1, e1)), Some((_, s2, e2))) => s1 == s2 && e1 == e2
      case _ => false
    }

  private def caseWhen(c: CaseWhen): String = {
    val keys = c.branches.map(_._1).collect { case EqualTo(k, _) => k }
    // A simple CASE (`CASE x WHEN 1 ...`): the parser compares the one key object in every branch.
    val simple = keys.size == c.branches.size && keys.nonEmpty && keys.forall(_ eq keys.head) &&
      SqlText.of(c).exists(t => !t.trim.toUpperCase(Locale.ROOT).matches("(?s)CASE\\s+WHEN\\b.*"))
    val whens =
      if (simple) c.branches.map { case (cond, v) =>
        s" WHEN ${render(cond.asInstanceOf[EqualTo].right)} THEN ${render(v)}"
      }
      else c.branches.map { case (cond, v) => s" WHEN ${render(cond)} THEN ${render(v)}" }
    val head = if (simple) s"CASE ${render(keys.head)}" else "CASE"
    s"$head${whens.mkString}${c.elseValue.map(v => s" ELSE ${render(v)}").getOrElse("")} END"
  }

  /** A subquery as written, white space collapsed, in parentheses (the text of EXISTS and IN
   *  subqueries starts with their keyword). */
  private def subquery(s: SubqueryExpression): String = SqlText.of(s) match {
    case Some(text) =>
      val t = SqlText.collapse(SqlText.withoutComments(text))
      val open = t.indexOf('(')
      if (open >= 0) t.substring(open) else s"($t)"
    case None => s"(${s.prettyName})"
  }

  private def window(spec: WindowSpecDefinition): String = {
    val parts = Seq(
      if (spec.partitionSpec.isEmpty) ""
      else s"PARTITION BY ${spec.partitionSpec.map(render).mkString(", ")}",
      if (spec.orderSpec.isEmpty) ""
      else s"ORDER BY ${spec.orderSpec.map(sortOrder).mkString(", ")}",
      spec.frameSpecification match {
        case UnspecifiedFrame => ""
        case f => f.sql
      })
    parts.filter(_.nonEmpty).mkString(" ")
  }

  private def sortOrder(s: SortOrder): String = {
    val dir = if (s.direction == Descending) " DESC" else ""
    val nulls =
      if (s.nullOrdering == s.direction.defaultNullOrdering) "" else s" ${s.nullOrdering.sql}"
    s"${render(s.child)}$dir$nulls"
  }
}
