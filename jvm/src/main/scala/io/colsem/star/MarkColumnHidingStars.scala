package io.colsem.star

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{ResolvedStar, Star, UnresolvedAlias, UnresolvedStar}
import org.apache.spark.sql.catalyst.expressions.{Expression, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, InsertIntoStatement, LogicalPlan, Project
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.CurrentOrigin
import org.apache.spark.sql.catalyst.trees.TreePattern.{AGGREGATE, PROJECT, UNRESOLVED_RELATION}

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.UserQueries

/**
 * Hints-batch rule (before Resolution, so before Spark expands any star): when the session asks
 * `*` to leave columns out (`spark.colsem.star.exclude`), wraps each `*`, `t.*`, `df["*"]` and
 * `* EXCEPT (...)` item of a SELECT list (and pipe `|> SET` / `|> DROP`'s stars) in a
 * [[ColumnHidingStar]], which decides at expansion time, once the FROM clause is resolved, which
 * columns are hidden. `TABLE t` and pipe `FROM t` get their `*` first ([[TableStatements]]).
 *
 * Left as vanilla: stars inside function calls (`struct(*)`, `hash(*)`); DataFrame `withColumn`
 * and friends, which Spark expresses as other star classes ([[MarkCarriedColumns]]); every star of
 * an INSERT statement, so `INSERT INTO t SELECT * FROM t` carries hidden columns through instead of
 * writing NULL or DEFAULT into them; and stars no user wrote ([[StarAuthors]]: code running inside
 * a command, a format's MERGE), which get every column.
 */
class MarkColumnHidingStars(session: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!plan.containsAnyPattern(PROJECT, AGGREGATE, UNRESOLVED_RELATION) ||
        UserQueries.changesConf(plan)) {
      plan
    } else StarExclusion.read(conf) match {
      case None => plan
      case Some(_) if writesRows(plan) => plan
      case Some(exclusion) =>
        val withStars =
          if (TableStatements.fromSqlText(plan)) TableStatements.addStars(plan) else plan
        val wrapped =
          withStars.resolveOperatorsWithPruning(_.containsAnyPattern(PROJECT, AGGREGATE)) {
            case p: Project if p.projectList.exists(isPlainStar) =>
              StarExclusion.requirePattern(exclusion, conf)
              p.copy(projectList = p.projectList.map(wrap(_, exclusion)))
            case a: Aggregate if a.aggregateExpressions.exists(isPlainStar) =>
              StarExclusion.requirePattern(exclusion, conf)
              a.copy(aggregateExpressions = a.aggregateExpressions.map(wrap(_, exclusion)))
          }
        // Who wrote the star is read only when there is one: queries without pay nothing.
        if ((wrapped eq plan) || StarAuthors.current(session) == StarAuthor.User) wrapped else plan
    }

  /** `*`, `t.*`, `df["*"]`, `* EXCEPT (...)` as a SELECT item, pipe `|> SET`/`|> DROP`'s stars;
   *  not the stars Spark builds for DataFrame `withColumn(s)`/`withColumnRenamed`. */
  private def isPlainStar(item: Expression): Boolean = item match {
    case _: UnresolvedStar | _: ResolvedStar => true
    case s if SparkShims.isStarExceptOrReplace(s) => true
    case UnresolvedAlias(s, _) => isPlainStar(s)
    case _ => false
  }

  private def wrap(item: NamedExpression, exclusion: StarExclusion): NamedExpression = item match {
    // The star's position stays on the wrapper, for Spark's errors that point at it.
    case s: Star if isPlainStar(s) =>
      CurrentOrigin.withOrigin(s.origin)(ColumnHidingStar(s, exclusion))
    case u @ UnresolvedAlias(s: Star, _) if isPlainStar(s) =>
      u.copy(child = CurrentOrigin.withOrigin(s.origin)(ColumnHidingStar(s, exclusion)))
    case other => other
  }

  /** An INSERT anywhere in the statement (CTEs before it included): its stars stay vanilla. */
  private def writesRows(plan: LogicalPlan): Boolean =
    plan.exists(_.isInstanceOf[InsertIntoStatement])
}
