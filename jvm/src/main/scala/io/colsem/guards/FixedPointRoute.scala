package io.colsem.guards

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.{Command, LogicalPlan, UnresolvedHint}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreePattern.UNRESOLVED_HINT

import io.colsem.errors.ColsemErrors
import io.colsem.settings.ColsemConf
import io.colsem.shims.SparkShims

/**
 * Spark chooses its analyzer after parsing, so the parser is where colsem can still steer the
 * choice. A statement parsed while a single-pass mode is on that holds what only colsem's rules
 * resolve and Spark's single-pass resolver fails on before any check rule runs (`onlyColsem`: a
 * lateral alias native Spark refuses) is routed so that no single-pass attempt is made:
 *  - tentative mode and dual run: the query goes under a `COLSEM_FIXED_POINT` hint, an operator
 *    Spark's ResolverGuard does not support, so Spark resolves it with the fixed-point analyzer
 *    at once; [[Unmark]], colsem's first Hints-batch rule, takes the hint away again, and the
 *    analyzed plan is what it would have been;
 *  - forced mode (no fall-back) under policy `error`: COLSEM_SINGLE_PASS_RESOLVER here, where
 *    Spark would fail with its own error before the guard's check rule sees the query; as a
 *    ParseException, which every caller of a parser expects.
 * {{{
 *   SELECT 10 AS ten, sum(s1 * ten) AS total FROM t1      (enabledTentatively=true)
 *
 *   'Aggregate [10 AS ten, 'sum('s1 * 'ten) AS total]  =>  'UnresolvedHint COLSEM_FIXED_POINT
 *   +- 'UnresolvedRelation [t1]                            +- 'Aggregate [...]
 *                                                             +- 'UnresolvedRelation [t1]
 * }}}
 * Golden: none (the modes are session settings):
 *   tests/test_single_pass.py::test_a_routed_query_analyzes_as_without_the_mode
 *
 * With every mode off (the default) the parsed plan is returned as Spark's parser made it, after
 * three settings are read; on Spark 3.5, which has no single-pass resolver, there is no route.
 * The parser is each line's `io.colsem.shims.RoutingParser`: ParserInterface gains methods from
 * line to line (4.3's `splitStatements`), and it passes on every exception of the parser it wraps
 * unchanged.
 */
object FixedPointRoute {

  val HintName = "COLSEM_FIXED_POINT"

  def parser(
      session: SparkSession,
      delegate: ParserInterface,
      onlyColsem: LogicalPlan => Boolean): ParserInterface =
    SparkShims.routingParser(delegate, (text, plan) => route(session, text, plan, onlyColsem))

  private def route(
      session: SparkSession,
      text: String,
      parsed: LogicalPlan,
      onlyColsem: LogicalPlan => Boolean): LogicalPlan = {
    val conf = session.sessionState.conf
    SinglePassMode.of(conf) match {
      case SinglePassMode.Off => parsed
      case _ if !ColsemConf.isEnabled(conf) || !onlyColsem(parsed) => parsed
      case SinglePassMode.Forced(on) =>
        if (ColsemConf.SinglePassResolverPolicy.readFrom(conf) == "warn") parsed
        else throw ColsemErrors.atParse(
          text,
          ColsemErrors.singlePassResolverActive(on.key, on.source.describe, on.turnOff))
      case _ => mark(parsed)
    }
  }

  /** The query under the hint; a command as it is (EXPLAIN's query falls back as before in the
   *  tentative mode; a dual run's EXPLAIN reports Spark's verdict on the single-pass leg). */
  private def mark(plan: LogicalPlan): LogicalPlan = plan match {
    case c: Command => c
    case query => UnresolvedHint(HintName, Nil, query)
  }

  /** Hints-batch rule, colsem's first: the route's hint taken away. */
  object Unmark extends Rule[LogicalPlan] {
    override def apply(plan: LogicalPlan): LogicalPlan =
      if (!plan.containsPattern(UNRESOLVED_HINT)) plan
      else plan.resolveOperatorsDownWithPruning(_.containsPattern(UNRESOLVED_HINT)) {
        case UnresolvedHint(HintName, _, child) => child
      }
  }
}
