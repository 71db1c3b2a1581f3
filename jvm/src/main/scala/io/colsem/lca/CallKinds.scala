package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAttribute, UnresolvedFunction}
import org.apache.spark.sql.catalyst.expressions.{
  Expression, Generator, Nondeterministic, SubqueryExpression, UnresolvedWindowExpression,
  UserDefinedExpression, WindowExpression
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction}

import io.colsem.vocabulary.{FunctionKinds, LateralAliasCandidate}

/** What kind of call a (possibly still unresolved) SELECT item makes: a window, an aggregate,
 *  a non-deterministic function; and whether computing it again costs only the computation. */
private[lca] object CallKinds {

  /** Whether an aggregate call counts as recomputable: in an aggregate list, computed per group,
   *  it does; in a per-row expression folded into its users it cannot stand. */
  sealed trait Aggregates
  object Aggregates {
    case object Recomputable extends Aggregates
    case object Refused extends Aggregates
  }

  /** Whether computing `e` again wherever it is read gives the same value and nothing else:
   *  deterministic built-in calls only, no UDF, generator, window or subquery (codegen shares
   *  the common part); names not resolved yet count as plain. */
  def isRecomputable(session: SparkSession, e: Expression, aggregates: Aggregates): Boolean =
    !e.exists(node => !isRecomputableNode(session, node, aggregates))

  private def isRecomputableNode(
      session: SparkSession,
      node: Expression,
      aggregates: Aggregates): Boolean = {
    val aggregatesRefused = aggregates == Aggregates.Refused
    node match {
      case u: UnresolvedFunction =>
        FunctionKinds.isBuiltin(u) && !FunctionKinds.isGenerator(session, u) &&
        !FunctionKinds.implementedBy(session, u, classOf[Nondeterministic]) &&
        !(aggregatesRefused && (u.isDistinct || u.filter.isDefined ||
          FunctionKinds.implementedBy(session, u, classOf[AggregateFunction])))
      case _: SubqueryExpression | _: UnresolvedWindowExpression | _: WindowExpression => false
      case _: LateralAliasCandidate | _: UnresolvedAttribute => true
      case e if e.resolved =>
        e.deterministic && !e.isInstanceOf[UserDefinedExpression] && !e.isInstanceOf[Generator] &&
        !(aggregatesRefused && e.isInstanceOf[AggregateExpression])
      case _ => true
    }
  }

  def isWindow(e: Expression): Boolean =
    e.isInstanceOf[UnresolvedWindowExpression] || e.isInstanceOf[WindowExpression]

  /** Whether an aggregate function is called other than as a window function, which makes a SELECT
   *  list an aggregate one, as Spark's GlobalAggregates sees it: `sum(v) OVER ()` does not, an
   *  aggregate in a window's arguments or specification (`rank() OVER (ORDER BY max(v))`) does. */
  def hasAggregateCall(session: SparkSession, e: Expression): Boolean = e match {
    case w: WindowExpression =>
      windowCallArguments(w.windowFunction).exists(hasAggregateCall(session, _)) ||
      hasAggregateCall(session, w.windowSpec)
    case w: UnresolvedWindowExpression =>
      windowCallArguments(w.child).exists(hasAggregateCall(session, _))
    case f if isAggregateCall(session, f) => true
    case _: SubqueryExpression => false
    case other => other.children.exists(hasAggregateCall(session, _))
  }

  /** What a window function's call reads (a resolved aggregate call is wrapped in an
   *  AggregateExpression). */
  private def windowCallArguments(call: Expression): Seq[Expression] = call match {
    case ae: AggregateExpression => ae.aggregateFunction.children ++ ae.filter.toSeq
    case other => other.children
  }

  /** Whether a (possibly still unresolved) call is to an aggregate function. */
  def isAggregateCall(session: SparkSession, e: Expression): Boolean = e match {
    case _: AggregateExpression | _: AggregateFunction => true
    case u: UnresolvedFunction =>
      FunctionKinds.implementedBy(session, u, classOf[AggregateFunction])
    case _ => false
  }

  def isNondeterministicCall(session: SparkSession, e: Expression): Boolean = e match {
    case u: UnresolvedFunction => FunctionKinds.implementedBy(session, u, classOf[Nondeterministic])
    case resolved => !resolved.deterministic && resolved.resolved
  }
}
