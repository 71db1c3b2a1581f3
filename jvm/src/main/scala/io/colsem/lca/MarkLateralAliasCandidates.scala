package io.colsem.lca

import scala.util.Try

import org.apache.spark.sql.catalyst.analysis.{
  CTESubstitution, UnresolvedAlias, UnresolvedAttribute
}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Expression, LambdaFunction, NamedExpression, UnresolvedNamedLambdaVariable
}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.CurrentOrigin
import org.apache.spark.sql.catalyst.trees.TreePattern.{
  LAMBDA_FUNCTION, LAMBDA_VARIABLE, UNRESOLVED_ATTRIBUTE
}
import org.apache.spark.sql.internal.SQLConf

import io.colsem.vocabulary.{LateralAliasCandidate, UserQueries}

/**
 * Hints-batch rule (before Resolution): in each SELECT list, wraps every name whose first part is
 * an alias defined by an earlier item in a [[LateralAliasCandidate]]. Done before Resolution so
 * that Spark's native lateral-alias support, which resolves one alias level per analyzer iteration,
 * never sees these names; [[ResolveLateralAliases]] resolves all levels at once. Only syntax is
 * known here (relations are not resolved yet), so a candidate may still turn out to be a column.
 */
object MarkLateralAliasCandidates extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    // Settings are read only for plans that may hold lateral aliases: a SET fixing a bad value
    // must not fail on it.
    if (!plan.containsPattern(UNRESOLVED_ATTRIBUTE) || UserQueries.changesConf(plan) ||
        !LateralAliasConf.enabled(conf)) plan
    else plan.resolveOperatorsUpWithPruning(_.containsPattern(UNRESOLVED_ATTRIBUTE)) {
      case p @ Project(projectList, _) if projectList.exists(_.isInstanceOf[Alias]) =>
        val marked = markList(projectList, conf)
        if (unchanged(marked, projectList)) p else p.copy(projectList = marked)
      case a: Aggregate if a.aggregateExpressions.exists(_.isInstanceOf[Alias]) =>
        val marked = markList(a.aggregateExpressions, conf)
        if (unchanged(marked, a.aggregateExpressions)) a else a.copy(aggregateExpressions = marked)
    }

  /** Whether a parsed statement, its WITH definitions and subqueries included, holds a name this
   *  rule would mark: one that only colsem resolves where Spark's single-pass resolver runs
   *  instead of the fixed-point analyzer (the guards' FixedPointRoute). A statement Spark's own
   *  CTE substitution refuses is left for Spark to refuse in its place. */
  def marksAny(parsed: LogicalPlan): Boolean =
    !UserQueries.changesConf(parsed) && LateralAliasConf.enabled(conf) &&
      Try(CTESubstitution(parsed)).toOption.exists(_.collectWithSubqueries {
        case p: Project => p.projectList
        case a: Aggregate => a.aggregateExpressions
      }.exists { items =>
        items.exists(_.isInstanceOf[Alias]) && !unchanged(markList(items, conf), items)
      })

  private def unchanged(marked: Seq[NamedExpression], original: Seq[NamedExpression]): Boolean =
    marked.zip(original).forall { case (m, o) => m eq o }

  private def markList(items: Seq[NamedExpression], conf: SQLConf): Seq[NamedExpression] = {
    val key = LateralAliasConf.nameKey(conf)
    var defined = Set.empty[String]
    items.map { item =>
      val marked = if (!mentionsAny(item, defined, key)) item
      else mark(item, defined, key) match {
        case named: NamedExpression => named
        // A bare name as a whole item (`SELECT s1 AS x, x`) keeps its name through an alias.
        case candidate => UnresolvedAlias(candidate)
      }
      item match {
        case a: Alias => defined += key(a.name)
        case _ =>
      }
      marked
    }
  }

  /** Whether the item names one of `names` at all (lambda parameters aside): most items name no
   *  alias, and looking costs no copy of the item. */
  private def mentionsAny(item: Expression, names: Set[String], key: String => String): Boolean =
    names.nonEmpty && item.exists {
      case u: UnresolvedAttribute => names.contains(key(u.nameParts.head))
      case v: UnresolvedNamedLambdaVariable => names.contains(key(v.nameParts.head))
      case _ => false
    }

  /** Wraps candidate names, except inside a lambda whose parameter has that name. A wrapper has
   *  its name's position, which the naming dialects read (`w + 1` is the text of `w + 1`). */
  private def mark(expr: Expression, names: Set[String], key: String => String): Expression =
    expr match {
      case u: UnresolvedAttribute if names.contains(key(u.nameParts.head)) =>
        CurrentOrigin.withOrigin(u.origin)(LateralAliasCandidate(u))
      // Inside a lambda body the parser makes every name a lambda variable; those that are no
      // parameter become plain attributes later, in Spark's ResolveLambdaVariables.
      case v: UnresolvedNamedLambdaVariable if names.contains(key(v.nameParts.head)) =>
        CurrentOrigin.withOrigin(v.origin)(LateralAliasCandidate(UnresolvedAttribute(v.nameParts)))
      case l @ LambdaFunction(body, arguments, _) =>
        val shadowed = arguments.collect {
          case v: UnresolvedNamedLambdaVariable => key(v.nameParts.head)
          case n: NamedExpression => key(n.name)
        }.toSet
        val visible = names -- shadowed
        if (visible.isEmpty) l else l.copy(function = mark(body, visible, key))
      case other
          if other.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LAMBDA_FUNCTION, LAMBDA_VARIABLE) =>
        other.mapChildren(mark(_, names, key))
      case other => other
    }
}
