package io.colsem.shims

import org.apache.spark.sql.{AnalysisException, SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction
import org.apache.spark.sql.catalyst.expressions.{
  Expression, FunctionTableSubqueryArgumentExpression, SortOrder
}
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationDef, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Everything whose Spark API differs between Spark lines sits behind this object; one copy per
 * line lives in `jvm/src/main/shims/`. This is the Spark 3.5 (Scala 2.12) copy: where 3.5 lacks
 * a feature (VARIANT, `* EXCEPT`, session variables, WITHIN GROUP, the single-pass resolver, the
 * Hints-batch injection), the answer is what that absence means; docs/versions.md lists them.
 */
object SparkShims extends SharedShims {

  /** Spark 3.5 has no session variables (DECLARE VARIABLE came in 4.0). */
  def isSessionVariable(session: SparkSession, name: String): Boolean = false

  /** Whether `e` reads a session variable (DECLARE VARIABLE; Spark 3.5 has none). */
  def isVariableReference(e: Expression): Boolean = false

  /** Spark 3.5 has only the fixed-point analyzer, where injected resolution rules run. */
  def checkingSinglePassResult(): Boolean = false

  /** Never called on Spark 3.5, which has no single-pass resolver to decline a query. */
  def unsupportedBySinglePassResolver(reason: String): Exception =
    new IllegalStateException(reason)

  /** Spark 3.5 parses no WITHIN GROUP clause into UnresolvedFunction. */
  def orderingWithinGroup(u: UnresolvedFunction): Seq[SortOrder] = Nil

  /** The error class of one of Spark's errors. */
  def errorClassOf(e: AnalysisException): String = e.getErrorClass

  /** Spark 3.5's DataFrame operators build expressions (`Add`), not internal function calls. */
  def isInternalCall(u: UnresolvedFunction): Boolean = false

  /** Spark 3.5 has no `* EXCEPT`. */
  def isStarExcept(e: Expression): Boolean = false

  /** Spark 3.5 has no `* EXCEPT` and no pipe syntax. */
  def isStarExceptOrReplace(e: Expression): Boolean = false

  /** Spark 3.5's `withColumn(s)` builds a projection of resolved columns: no star to find (and no
   *  Hints-batch rule to look; docs/versions.md). */
  def isColumnKeepingStar(e: Expression): Boolean = false

  /** Spark 3.5 has no VARIANT: MISSING comes from MAP lookups only. */
  def variantPresence(e: Expression): Option[Expression] = None

  /** Spark 3.5 has no SQL functions. */
  def callsSqlFunction(e: Expression): Boolean = false

  /** Whether native lateral aliases answer under ROLLUP, CUBE and GROUPING SETS (not on 3.5). */
  val nativeLateralAliasesUnderGroupingSets: Boolean = NativeLateralAliases.underGroupingSets

  /** Whether ROLLUP, CUBE and GROUPING SETS over a list's alias or ordinal keep the item's
   *  expression id (not on 3.5). */
  val groupingSetsOverAliasesKeepItemIds: Boolean = GroupingSetsOverAliases.keepItemIds

  /** Spark 3.5 has no COLLATE clause. */
  def isCollate(e: Expression): Boolean = false

  /** Spark 3.5 has no pipe syntax. */
  def isPipeExpression(e: Expression): Boolean = false

  /** Spark 3.5 has no pipe syntax. */
  def pipeAggregateItem(e: Expression): Option[Expression] = None

  /** Spark 3.5 has no pipe syntax. */
  def isPipeAggregateOrdinal(e: Expression): Boolean = false

  /** Spark 3.5 has no recursive CTEs. */
  def isRecursive(d: CTERelationDef): Boolean = false

  /** Rules that must see the plan before Resolution (stars unexpanded, names unresolved), in
   *  order. Spark 3.5 has no Hints-batch injection, and its Resolution batch expands a star in
   *  the iteration its input resolves, before any injected rule: so the rules run on each parsed
   *  statement instead (SQL text and view text, nested CTEs and subqueries included), through a
   *  parser wrapping Spark's. Plans the DataFrame API builds are never parsed: they stay
   *  vanilla. */
  /** Spark 3.5 has no single-pass resolver, so nothing to route: `delegate` itself. */
  def routingParser(
      delegate: ParserInterface,
      route: (String, LogicalPlan) => LogicalPlan): ParserInterface =
    delegate

  def injectPreResolutionRules(
      extensions: SparkSessionExtensions,
      rules: Seq[SparkSession => Rule[LogicalPlan]]): Unit =
    extensions.injectParser((session, delegate) =>
      new PreResolutionParser(session, delegate, rules.map(_(session))))

  /** Spark 3.5 parses no PARTITION BY or ORDER BY after a TABLE argument. */
  def isPlainTableArgument(t: FunctionTableSubqueryArgumentExpression): Boolean = true
}
