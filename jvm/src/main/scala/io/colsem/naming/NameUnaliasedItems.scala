package io.colsem.naming

import java.util.Locale

import scala.util.Try

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAlias, UnresolvedAttribute, UnresolvedFunction}
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression, Generator, GeneratorOuter, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.{CurrentOrigin, TreeNodeTag}
import org.apache.spark.sql.catalyst.trees.TreePattern.{UNRESOLVED_ALIAS, UNRESOLVED_ATTRIBUTE}

import io.colsem.ValidateColsemConf
import io.colsem.lca.LateralAliasCandidate

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
        ValidateColsemConf.changesConf(plan)) return plan
    val dialect = NamingDialect.of(conf)
    if (dialect == NamingDialect.Spark) return plan
    plan.resolveOperatorsUpWithPruning(_.containsAnyPattern(UNRESOLVED_ALIAS, UNRESOLVED_ATTRIBUTE)) {
      case p @ Project(items, _) =>
        val named = items.map(nameItem(_, dialect))
        if (NameUnaliasedItems.unchanged(named, items)) p else p.copy(projectList = named)
      case a: Aggregate =>
        val named = a.aggregateExpressions.map(nameItem(_, dialect))
        if (NameUnaliasedItems.unchanged(named, a.aggregateExpressions)) a
        else a.copy(aggregateExpressions = named)
    }
  }

  private def nameItem(item: NamedExpression, dialect: NamingDialect): NamedExpression = item match {
    case u @ UnresolvedAlias(child, _) if nameable(child) =>
      NameUnaliasedItems.pending(u, child, NameUnaliasedItems.nameOf(child, dialect), bareName = false)
    // `current_date` and its kin without parentheses: a column to the parser, a function to Spark
    // (which names it `current_date()`); the systems name it as written.
    case a: UnresolvedAttribute if a.nameParts.size == 1 && dialect != NamingDialect.Canonical &&
        NameUnaliasedItems.LiteralFunctions.contains(a.nameParts.head.toLowerCase(Locale.ROOT)) &&
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
      if (folded == a.nameParts.last) a else NameUnaliasedItems.pending(a, a, folded, bareName = true)
    case other => other
  }

  /** Items whose name this rule decides: not already named, not a generator. */
  private def nameable(child: Expression): Boolean = child match {
    case _: NamedExpression | _: LateralAliasCandidate | _: Generator | _: GeneratorOuter => false
    case u: UnresolvedFunction => !isGenerator(u)
    case _ => true
  }

  private def isGenerator(u: UnresolvedFunction): Boolean =
    u.nameParts.size == 1 &&
      session.sessionState.catalog.lookupBuiltinOrTempFunction(u.nameParts.head).exists { info =>
        // explode and its kin are registered through builders, which are no Generator classes.
        info.getGroup == "generator_funcs" ||
          Try(Class.forName(info.getClassName, false, getClass.getClassLoader)).toOption
            .exists(cls => classOf[Generator].isAssignableFrom(cls))
      }
}

object NameUnaliasedItems {
  /** Names Spark resolves as functions when no column has them (its literal functions). */
  val LiteralFunctions: Set[String] =
    Set("current_date", "current_timestamp", "current_time", "current_user", "user", "session_user")

  /** Marks the aliases made from this rule's names, so that the lateral-alias rules do not take
   *  an implicit name for an alias the user defined. */
  val Implicit: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.naming.implicit")

  def isImplicit(a: Alias): Boolean = a.getTagValue(Implicit).isDefined

  /** The dialect's name for an unaliased item's expression. */
  def nameOf(e: Expression, dialect: NamingDialect): String = dialect match {
    case NamingDialect.Canonical | NamingDialect.Spark => CanonicalNames.name(e)
    case NamingDialect.Postgres => PostgresNames.name(e)
    case NamingDialect.MySQL => VerbatimNames.mysql(e)
    case NamingDialect.SQLite => VerbatimNames.sqlite(e)
  }

  /** Spark's name for the DEFAULT keyword (ResolveDefaultColumns' CURRENT_DEFAULT_COLUMN_NAME). */
  private def isDefault(a: UnresolvedAttribute): Boolean =
    a.nameParts.size == 1 && a.nameParts.head.equalsIgnoreCase("default")

  private def pending(item: Expression, child: Expression, name: String, bareName: Boolean) =
    CurrentOrigin.withOrigin(item.origin)(UnresolvedDialectAlias(child, name, bareName))

  private def unchanged(named: Seq[NamedExpression], items: Seq[NamedExpression]): Boolean =
    named.zip(items).forall { case (n, i) => n eq i }
}
