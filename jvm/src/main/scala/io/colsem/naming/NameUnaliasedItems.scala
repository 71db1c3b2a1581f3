package io.colsem.naming

import java.util.Locale

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{
  UnresolvedAlias, UnresolvedAttribute, UnresolvedFunction
}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Expression, Generator, GeneratorOuter, NamedExpression
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project, View}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.CurrentOrigin
import org.apache.spark.sql.catalyst.trees.TreePattern.{UNRESOLVED_ALIAS, UNRESOLVED_ATTRIBUTE}

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.{FunctionKinds, LateralAliasCandidate, UserQueries}

/**
 * Hints-batch rule (before Resolution): names every unaliased item of every SELECT list (Project
 * and Aggregate, at every level: subqueries and CTEs too) by the session's
 * `spark.colsem.naming.dialect`. The name is computed here, on the expression as parsed, for two
 * reasons: the text and shape the user wrote are still there (`count(*)`, `<>`, a simple CASE),
 * and an outer query resolves its names against the inner query's output after this, so it can
 * refer to an inner unaliased item by its dialect name. The item becomes an
 * [[UnresolvedDialectAlias]], which [[ResolveDialectAliases]] makes the Alias Spark would make
 * once the list is resolved: only the name differs from Spark's.
 *
 * Left to Spark: items with an explicit alias, `*`, bare columns (Spark names them as written,
 * without qualifier; under `postgres` an unquoted mixed-case name is folded to lower case),
 * `DEFAULT` (a bare name INSERT and SET VARIABLE give its meaning), generators (`explode(...)`
 * may make several columns, each with Spark's name).
 */
class NameUnaliasedItems(session: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsAnyPattern(UNRESOLVED_ALIAS, UNRESOLVED_ATTRIBUTE) ||
        UserQueries.changesConf(plan)) return plan
    val dialect = NamingDialect.of(conf)
    if (dialect == NamingDialect.Spark) return plan
    val named = plan.resolveOperatorsUpWithPruning(_.containsAnyPattern(
      UNRESOLVED_ALIAS,
      UNRESOLVED_ATTRIBUTE)) {
      case p @ Project(items, _) =>
        val named = items.map(nameItem(_, dialect))
        if (NameUnaliasedItems.unchanged(named, items)) p else p.copy(projectList = named)
      case a: Aggregate =>
        val named = a.aggregateExpressions.map(nameItem(_, dialect))
        if (NameUnaliasedItems.unchanged(named, a.aggregateExpressions)) a
        else a.copy(aggregateExpressions = named)
    }
    if (UserQueries.resolvingViewQuery || OutermostSelect.bindsViewColumns(named)) {
      OutermostSelect.mapViewQuery(named)(distinctStoredNames)
    } else {
      // Spark 3.5 resolves a temporary view's query inside the reading statement's plan.
      OutermostSelect.mapStored(named)(distinctStoredNames).resolveOperatorsDown {
        case v: View if OutermostSelect.bindsViewColumns(v.child) =>
          v.copy(child = OutermostSelect.mapViewQuery(v.child)(distinctStoredNames))
      }
    }
  }

  /**
   * A view's or table's columns need distinct names, which Spark's names may have where the
   * dialect's do not (`CREATE VIEW v AS SELECT 1, 'a'`: `?column?` twice under `postgres`, which
   * would fail with COLUMN_ALREADY_EXISTS where Spark creates the view). Items the dialect names
   * alike keep Spark's names, when the view is created and each time its query is read.
   */
  private def distinctStoredNames(
      items: Seq[NamedExpression],
      input: LogicalPlan): Option[Seq[NamedExpression]] = {
    def key(name: String) = if (conf.caseSensitiveAnalysis) name else name.toLowerCase(Locale.ROOT)
    val names = items.collect {
      case u: UnresolvedDialectAlias => key(u.name)
      case a: Alias => key(a.name)
      case a: UnresolvedAttribute => key(a.nameParts.last)
    }
    val repeated = names.groupBy(identity).collect { case (n, all) if all.size > 1 => n }.toSet
    if (repeated.isEmpty) return None
    val list = items.map {
      case u: UnresolvedDialectAlias if repeated.contains(key(u.name)) =>
        u.child match {
          case bare: NamedExpression if u.bareName => bare
          case child => CurrentOrigin.withOrigin(u.origin)(UnresolvedAlias(child))
        }
      case other => other
    }
    if (NameUnaliasedItems.unchanged(list, items)) None else Some(list)
  }

  private def nameItem(item: NamedExpression, dialect: NamingDialect): NamedExpression =
    item match {
      case u @ UnresolvedAlias(child, _) if nameable(child) =>
        NameUnaliasedItems.pending(
          u,
          child,
          NameUnaliasedItems.nameOf(child, dialect),
          bareName = false)
      // `current_date` and its kin without parentheses: a column to the parser, a function to Spark
      // (which names it `current_date()`); the systems name it as written.
      case a: UnresolvedAttribute
          if a.nameParts.size == 1 && dialect != NamingDialect.Canonical &&
            NameUnaliasedItems.LiteralFunctions.contains(
              a.nameParts.head.toLowerCase(Locale.ROOT)) &&
            !SqlText.of(a).exists(_.contains("`")) =>
        val name = dialect match {
          case NamingDialect.Postgres => PostgresNames.name(a)
          case _ => SqlText.of(a).getOrElse(a.nameParts.head)
        }
        NameUnaliasedItems.pending(a, a, name, bareName = true)
      // INSERT and SET VARIABLE read a bare DEFAULT item as the column's or variable's default.
      case a: UnresolvedAttribute if NameUnaliasedItems.isDefault(a) => a
      case a: UnresolvedAttribute if dialect == NamingDialect.Postgres =>
        val folded = PostgresNames.name(a)
        if (folded == a.nameParts.last) a
        else NameUnaliasedItems.pending(a, a, folded, bareName = true)
      case other => other
    }

  /** Items whose name this rule decides: not already named, not a generator. */
  private def nameable(child: Expression): Boolean = NameUnaliasedItems.written(child) match {
    case _: NamedExpression | _: LateralAliasCandidate | _: Generator | _: GeneratorOuter => false
    // A pipe AGGREGATE's GROUP BY ordinal is the grouping column, with that column's name (Spark
    // 4.0 and 4.1 parse it inside an UnresolvedAlias, later lines bare).
    case o if SparkShims.isPipeAggregateOrdinal(o) => false
    case u: UnresolvedFunction => !FunctionKinds.isGenerator(session, u)
    case _ => true
  }
}

object NameUnaliasedItems {

  /** Names Spark resolves as functions when no column has them (its literal functions). */
  val LiteralFunctions: Set[String] =
    Set("current_date", "current_timestamp", "current_time", "current_user", "user", "session_user")

  /** The dialect's name for an unaliased item's expression. */
  def nameOf(e: Expression, dialect: NamingDialect): String = dialect match {
    case NamingDialect.Canonical | NamingDialect.Spark => CanonicalNames.name(written(e))
    case NamingDialect.Postgres => PostgresNames.name(written(e))
    case NamingDialect.MySQL => VerbatimNames.mysql(written(e))
    case NamingDialect.SQLite => VerbatimNames.sqlite(written(e))
  }

  /** The item as the user wrote it: a pipe operator's wrapper (`|> AGGREGATE sum(y)`) spans the
   *  whole query and is stripped by Spark once resolved. */
  private def written(e: Expression): Expression =
    if (SparkShims.isPipeExpression(e)) e.children.head else e

  /** Spark's name for the DEFAULT keyword (ResolveDefaultColumns' CURRENT_DEFAULT_COLUMN_NAME). */
  private def isDefault(a: UnresolvedAttribute): Boolean =
    a.nameParts.size == 1 && a.nameParts.head.equalsIgnoreCase("default")

  private def pending(item: Expression, child: Expression, name: String, bareName: Boolean) =
    CurrentOrigin.withOrigin(item.origin)(UnresolvedDialectAlias(child, name, bareName))

  private def unchanged(named: Seq[NamedExpression], items: Seq[NamedExpression]): Boolean =
    named.zip(items).forall { case (n, i) => n eq i }
}
