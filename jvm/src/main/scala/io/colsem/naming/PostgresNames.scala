package io.colsem.naming

import java.util.Locale

import org.apache.spark.sql.catalyst.analysis.{
  UnresolvedAlias, UnresolvedAttribute, UnresolvedExtractValue, UnresolvedFunction
}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, Distinct, Filter, GlobalLimit, LocalLimit, LogicalPlan, Project, Sort, SubqueryAlias,
  Union
}
import org.apache.spark.sql.types._

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * PostgreSQL's name for an unaliased SELECT item (its parser's FigureColname), computed from the
 * expression as parsed:
 *  - a column: its name (an unquoted identifier folded to lower case, as PostgreSQL folds it);
 *    a field or subscript: the last field's name, else the column's;
 *  - a function call (aggregates and windows included): the function's name alone, lower case;
 *    grammar-made calls keep PostgreSQL's name for them (`TRIM(...)` -> `btrim`, `POSITION` ->
 *    `position`, `NULLIF`, `COALESCE`, `GREATEST`, `EXISTS`);
 *  - a cast: its operand's name when that is a column or function, else the type's name as
 *    PostgreSQL calls it internally (`int4`, `int8`, `numeric`, `varchar`, `bool`, ...); a typed
 *    literal (`DATE '...'`) is a cast of a string;
 *  - a CASE: its ELSE's name when that is a column or function, else `case`;
 *  - a scalar subquery: its first column's name;
 *  - anything else (operators, literals, IN, IS NULL, ...): `?column?`.
 */
object PostgresNames {
  val Unnamed = "?column?"

  /** Functions the DataFrame API calls for operators (`-col`, `col.isNull`, `col.isin`, `&`). */
  private val DataFrameOperators =
    Set(
      "and",
      "or",
      "not",
      "negative",
      "positive",
      "isnull",
      "isnotnull",
      "in",
      "like",
      "rlike",
      "ilike")

  def name(e: Expression): String = figure(e).map(_._1).getOrElse(Unnamed)

  /** (name, strength): 2 for a column or function name, 1 for a type name or `case`. */
  private def figure(e: Expression): Option[(String, Int)] = e match {
    case c: LateralAliasCandidate => Some((column(c.attribute), 2))
    case a: UnresolvedAttribute => Some((column(a), 2))
    case a: Attribute => Some((a.name, 2))
    case Alias(child, _) => figure(child)
    case UnresolvedExtractValue(child, Literal(field, StringType))
        if field != null &&
          SqlText.of(e).forall(!_.trim.endsWith("]")) =>
      Some((field.toString, 2))
    case UnresolvedExtractValue(child, _) => figure(child)
    case u: UnresolvedFunction if isOperatorSyntax(u) => None
    // The DataFrame API's operators are internal calls of functions named by the operator.
    case u: UnresolvedFunction
        if SparkShims.isInternalCall(u) || !u.nameParts.last.exists(_.isLetterOrDigit) ||
          (SqlText.span(u).isEmpty && DataFrameOperators.contains(
            u.nameParts.last.toLowerCase(Locale.ROOT))) => None
    case u: UnresolvedFunction => Some((functionName(u.nameParts.last), 2))
    case UnresolvedWindowExpression(f, _) => figure(f)
    case WindowExpression(f, _) => figure(f)
    case c: Cast =>
      figure(c.child).filter(_._2 == 2).orElse(Some((castType(c), 1)))
    case l: Literal => typedLiteral(l).map(t => (t, 1))
    case c: CaseWhen =>
      c.elseValue.flatMap(figure).filter(_._2 == 2).orElse(Some(("case", 1)))
    case s: ScalarSubquery => firstColumn(s.plan).map(n => (n, 2))
    case _: Exists => Some(("exists", 2))
    case _: StringTrim => Some(("btrim", 2))
    case _: StringTrimLeft => Some(("ltrim", 2))
    case _: StringTrimRight => Some(("rtrim", 2))
    case _: StringLocate => Some(("position", 2))
    case _: Substring => Some(("substring", 2))
    case other if SparkShims.isCollate(other) => other.children.headOption.flatMap(figure)
    case _ => None
  }

  /** PostgreSQL folds an unquoted identifier to lower case; a quoted one keeps its case, and so
   *  does a DataFrame API column name (no SQL text: like a quoted identifier, exact). */
  private def column(a: UnresolvedAttribute): String = {
    val last = a.nameParts.last
    val quoted = SqlText.of(a).forall(_.trim.endsWith("`"))
    if (quoted) last else last.toLowerCase(Locale.ROOT)
  }

  /** Functions PostgreSQL's grammar builds under another name. */
  private def functionName(written: String): String = written.toLowerCase(Locale.ROOT) match {
    case "trim" => "btrim"
    case other => other
  }

  /** Spark builds BETWEEN as a function call. */
  private def isOperatorSyntax(u: UnresolvedFunction): Boolean = SqlText.isInfix(u)

  private val TypedLiteral =
    "(?is)\\s*(DATE|TIMESTAMP_NTZ|TIMESTAMP_LTZ|TIMESTAMP|INTERVAL)\\s*'.*".r

  private def typedLiteral(l: Literal): Option[String] = SqlText.of(l).collect {
    case TypedLiteral(kind) => kind.toLowerCase(Locale.ROOT) match {
        case "timestamp_ltz" => "timestamptz"
        case "timestamp_ntz" => "timestamp"
        case k => k
      }
  }

  /** The type as written after `AS` or `::`, in PostgreSQL's internal spelling; from the data type
   *  when there is no text. */
  private def castType(c: Cast): String = {
    val written = for {
      (text, _, stop) <- SqlText.span(c)
      (_, _, childStop) <- SqlText.span(c.child)
      if childStop < stop
    } yield {
      val rest = text.substring(childStop + 1, stop + 1).replaceFirst("^[)\\s]*", "")
      val afterOp =
        if (rest.startsWith("::")) rest.substring(2)
        else rest.replaceFirst("(?is)^AS\\s+", "").replaceFirst("\\)\\s*$", "")
      afterOp.trim.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ")
    }
    written.flatMap(pgTypeName).getOrElse(pgTypeName(c.dataType))
  }

  private def pgTypeName(written: String): Option[String] = {
    val base = written.replaceAll("\\(.*", "").trim
    Some(base match {
      case "int" | "integer" | "int4" => "int4"
      case "bigint" | "int8" | "long" => "int8"
      case "smallint" | "int2" | "short" => "int2"
      case "real" | "float4" => "float4"
      case "float" | "double precision" | "float8" | "double" => "float8"
      case "decimal" | "numeric" | "dec" => "numeric"
      case "boolean" | "bool" => "bool"
      case "varchar" | "character varying" => "varchar"
      case "char" | "character" => "bpchar"
      case "string" | "text" => "text"
      case "timestamp with time zone" | "timestamptz" | "timestamp_ltz" => "timestamptz"
      case "timestamp" | "timestamp without time zone" | "timestamp_ntz" => "timestamp"
      case "binary" | "bytea" => "bytea"
      case other if other.nonEmpty => other
      case _ => return None
    })
  }

  private def pgTypeName(t: DataType): String = t match {
    case IntegerType => "int4"
    case LongType => "int8"
    case ShortType => "int2"
    case FloatType => "float4"
    case DoubleType => "float8"
    case _: DecimalType => "numeric"
    case BooleanType => "bool"
    case _: VarcharType => "varchar"
    case _: CharType => "bpchar"
    case _: StringType => "text"
    case DateType => "date"
    case TimestampType => "timestamptz"
    case TimestampNTZType => "timestamp"
    case BinaryType => "bytea"
    case other => other.typeName
  }

  /** The name PostgreSQL gives a subquery's first column. */
  private def firstColumn(plan: LogicalPlan): Option[String] = plan match {
    case Project(items, _) => items.headOption.map(item)
    case a: Aggregate => a.aggregateExpressions.headOption.map(item)
    case u: Union => u.children.headOption.flatMap(firstColumn)
    case s: Sort => firstColumn(s.child)
    case f: Filter => firstColumn(f.child)
    case d: Distinct => firstColumn(d.child)
    case l: GlobalLimit => firstColumn(l.child)
    case l: LocalLimit => firstColumn(l.child)
    case s: SubqueryAlias => firstColumn(s.child)
    case other => other.children.headOption.flatMap(firstColumn)
  }

  private def item(e: NamedExpression): String = e match {
    case a: Alias => a.name
    case u: UnresolvedDialectAlias => u.name
    case UnresolvedAlias(child, _) => name(child)
    case other => name(other)
  }
}
