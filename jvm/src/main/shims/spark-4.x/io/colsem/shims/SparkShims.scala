package io.colsem.shims

import org.apache.spark.sql.{AnalysisException, SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.analysis.{
  UnresolvedFunction, UnresolvedStarExceptOrReplace, UnresolvedStarWithColumns,
  UnresolvedStarWithColumnsRenames
}
import org.apache.spark.sql.catalyst.expressions.{
  Expression, FunctionTableSubqueryArgumentExpression, IsNotNull, SortOrder
}
import org.apache.spark.sql.catalyst.expressions.variant.VariantGet
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationDef, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.VariantType

/**
 * Everything whose Spark API differs between Spark lines sits behind this object; one copy per
 * line lives in `jvm/src/main/shims/`. This is the Spark 4.x copy (4.0 to 4.3); what differs
 * within 4.x is delegated to the smaller objects of the range folders (`spark-4.0`,
 * `spark-4.1-4.3`, ...), which `line.<L>.shims` in jvm/versions.properties selects.
 */
object SparkShims extends SharedShims {

  /** Whether `name` is a session variable (DECLARE VARIABLE), which a bare name may mean. */
  def isSessionVariable(session: SparkSession, name: String): Boolean =
    session.sessionState.catalogManager.tempVariableManager.get(Seq(name)).isDefined

  /** Whether `e` reads a session variable (DECLARE VARIABLE). */
  def isVariableReference(e: Expression): Boolean =
    e.isInstanceOf[org.apache.spark.sql.catalyst.expressions.VariableReference]

  /** The class through which Spark 4.1+'s single-pass resolver runs the check rules, before it
   *  marks its plan (`ResolverRunner.SINGLE_PASS_ANALYSIS_MARKER`, set only after the checks). */
  val SinglePassChecks = "org.apache.spark.sql.catalyst.analysis.resolver.ResolutionCheckRunner"

  /** The trait through which the fixed-point analyzer runs the check rules. */
  val FixedPointChecks = "org.apache.spark.sql.catalyst.analysis.CheckAnalysis"

  /** Whether the check rules now running check a plan the single-pass resolver resolved: the
   *  nearest of Spark's two callers of check rules on this thread's stack is the single-pass one.
   *  Only called while a single-pass mode is on. */
  def checkingSinglePassResult(): Boolean =
    StackWalker
      .getInstance()
      .walk[java.util.Optional[String]](frames =>
        frames
          .map[String](_.getClassName)
          .filter(n => n == SinglePassChecks || n == FixedPointChecks)
          .findFirst())
      .orElse("") == SinglePassChecks

  /** The error by which the single-pass resolver declines a query: tentative mode then resolves
   *  it with the fixed-point analyzer, and a dual run returns the fixed-point result. */
  def unsupportedBySinglePassResolver(reason: String): Exception =
    new org.apache.spark.sql.catalyst.analysis.resolver.ExplicitlyUnsupportedResolverFeature(
      reason)

  /** The ORDER BY of a call's WITHIN GROUP clause (empty without one). */
  def orderingWithinGroup(u: UnresolvedFunction): Seq[SortOrder] = u.orderingWithinGroup

  /** The error class of one of Spark's errors. */
  def errorClassOf(e: AnalysisException): String = e.getCondition

  /** Whether the DataFrame API made this call (`col("a") + 1` is an internal call of `+`). */
  def isInternalCall(u: UnresolvedFunction): Boolean = u.isInternal

  /** `* EXCEPT (...)` without REPLACE (Spark 4 parses both into one class). */
  def isStarExcept(e: Expression): Boolean = e match {
    case s: UnresolvedStarExceptOrReplace => s.replacements.isEmpty
    case _ => false
  }

  /** `* EXCEPT (...)` or `* REPLACE`-like stars of pipe `|> SET` / `|> DROP` (one class). */
  def isStarExceptOrReplace(e: Expression): Boolean = e.isInstanceOf[UnresolvedStarExceptOrReplace]

  /** The star Spark builds for DataFrame `withColumn(s)`, `withMetadata` and
   *  `withColumnRenamed(s)`: every column of the input, some replaced, renamed or added. */
  def isColumnKeepingStar(e: Expression): Boolean = e match {
    case _: UnresolvedStarWithColumns | _: UnresolvedStarWithColumnsRenames => true
    case _ => false
  }

  /** For a lookup of a VARIANT path, whether the path is present (a JSON null counts as present);
   *  None for any other expression. */
  def variantPresence(e: Expression): Option[Expression] = e match {
    case VariantGet(variant, path, _, _, timeZoneId) =>
      Some(IsNotNull(VariantGet(variant, path, VariantType, failOnError = false, timeZoneId)))
    case _ => None
  }

  /** Whether `e` calls a SQL function (CREATE FUNCTION ... RETURN) not yet inlined by Spark's
   *  ResolveSQLFunctions. */
  def callsSqlFunction(e: Expression): Boolean =
    e.containsPattern(org.apache.spark.sql.catalyst.trees.TreePattern.SQL_FUNCTION_EXPRESSION)

  /** Whether native lateral aliases answer under ROLLUP, CUBE and GROUPING SETS (from 4.2). */
  val nativeLateralAliasesUnderGroupingSets: Boolean = NativeLateralAliases.underGroupingSets

  /** Whether ROLLUP, CUBE and GROUPING SETS over a list's alias or ordinal keep the item's
   *  expression id (from 4.2). */
  val groupingSetsOverAliasesKeepItemIds: Boolean = GroupingSetsOverAliases.keepItemIds

  /** Whether `e` is a COLLATE clause (`s COLLATE UNICODE_CI`). */
  def isCollate(e: Expression): Boolean =
    e.isInstanceOf[org.apache.spark.sql.catalyst.expressions.Collate]

  /** Whether `e` is a pipe operator's wrapper around an item (`|> AGGREGATE sum(y)`), which
   *  Spark strips once the item is resolved. */
  def isPipeExpression(e: Expression): Boolean =
    e.isInstanceOf[org.apache.spark.sql.catalyst.expressions.PipeExpression]

  /** The item of a `|> AGGREGATE` list inside Spark's wrapper, which requires an aggregate
   *  function in it; None for any other expression. */
  def pipeAggregateItem(e: Expression): Option[Expression] = e match {
    case org.apache.spark.sql.catalyst.expressions.PipeExpression(child, true, _) => Some(child)
    case _ => None
  }

  /** Whether `e` is a pipe AGGREGATE's GROUP BY ordinal in the aggregate list (`|> AGGREGATE
   *  sum(y) GROUP BY 1`), which Spark resolves only once every other item is resolved. */
  def isPipeAggregateOrdinal(e: Expression): Boolean =
    e.isInstanceOf[org.apache.spark.sql.catalyst.analysis.UnresolvedPipeAggregateOrdinal]

  /** A recursive CTE definition (WITH RECURSIVE), which reads its own rows. */
  def isRecursive(d: CTERelationDef): Boolean =
    d.hasSelfReferenceAsCTERef || d.hasSelfReferenceAsUnionLoopRef

  /** Rules that must see the plan before Resolution (stars unexpanded, names unresolved), in
   *  order: Spark 4's Hints batch, which runs before Resolution on every plan analyzed. */
  /** `delegate`, each statement's plan passed through `route` (guards' FixedPointRoute). */
  def routingParser(
      delegate: ParserInterface,
      route: (String, LogicalPlan) => LogicalPlan): ParserInterface =
    new RoutingParser(delegate, route)

  def injectPreResolutionRules(
      extensions: SparkSessionExtensions,
      rules: Seq[SparkSession => Rule[LogicalPlan]]): Unit =
    rules.foreach(extensions.injectHintResolutionRule)

  /** Whether a TABLE argument is the relation alone: no PARTITION BY, WITH SINGLE PARTITION or
   *  ORDER BY (which only a Python UDTF can honour). */
  def isPlainTableArgument(t: FunctionTableSubqueryArgumentExpression): Boolean =
    t.partitionByExpressions.isEmpty && !t.withSinglePartition && t.orderByExpressions.isEmpty
}
