package io.colsem.shims

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.{FunctionIdentifier, TableIdentifier}
import org.apache.spark.sql.catalyst.analysis.CTESubstitution
import org.apache.spark.sql.catalyst.expressions.{Expression, SubqueryExpression}
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, MergeIntoTable}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreePattern.{
  AGGREGATE, PLAN_EXPRESSION, PROJECT, UNRESOLVED_RELATION
}
import org.apache.spark.sql.types.{DataType, StructType}

/**
 * Spark 3.5: Spark's parser, then colsem's pre-resolution rules on what it parsed (a statement,
 * or a view's text when the view is read). Each rule sees every query block as the Hints batch
 * would on 4.x, the CTE definitions of a WITH and the plans of subquery expressions included.
 */
class PreResolutionParser(
    session: SparkSession,
    delegate: ParserInterface,
    rules: Seq[Rule[LogicalPlan]])
  extends ParserInterface {

  override def parsePlan(sqlText: String): LogicalPlan = prepared(delegate.parsePlan(sqlText))

  override def parseQuery(sqlText: String): LogicalPlan = prepared(delegate.parseQuery(sqlText))

  override def parseExpression(sqlText: String): Expression = delegate.parseExpression(sqlText)

  override def parseTableIdentifier(sqlText: String): TableIdentifier =
    delegate.parseTableIdentifier(sqlText)

  override def parseFunctionIdentifier(sqlText: String): FunctionIdentifier =
    delegate.parseFunctionIdentifier(sqlText)

  override def parseMultipartIdentifier(sqlText: String): Seq[String] =
    delegate.parseMultipartIdentifier(sqlText)

  override def parseTableSchema(sqlText: String): StructType = delegate.parseTableSchema(sqlText)

  override def parseDataType(sqlText: String): DataType = delegate.parseDataType(sqlText)

  /** The rules see what the Hints batch sees on 4.x: the plan after Spark's CTE and WINDOW
   *  substitutions (so a CTE body is part of its statement, an INSERT's included, and a named
   *  window is spelt out). When no rule changes anything, the parsed plan is returned as parsed:
   *  colsem's settings off, the analyzer gets exactly what vanilla Spark's would. A MERGE is seen
   *  even without a SELECT (`USING v`): the rules hold back its source; so is `TABLE t`, which
   *  reads as `SELECT * FROM t` (io.colsem.star.TableStatements). */
  private def prepared(parsed: LogicalPlan): LogicalPlan = {
    if (!parsed.containsAnyPattern(PROJECT, AGGREGATE, UNRESOLVED_RELATION) &&
        !parsed.isInstanceOf[MergeIntoTable])
      return parsed
    val substituted = session.sessionState.analyzer.WindowsSubstitution(CTESubstitution(parsed))
    val marked = rules.foldLeft(substituted)((p, rule) => everywhere(p, rule))
    if (marked fastEquals substituted) parsed else marked
  }

  /** The plan with `rule` applied to it and to the plans of its subquery expressions, which are
   *  no children of their operators (the analyzer runs its batches on them separately). */
  private def everywhere(plan: LogicalPlan, rule: Rule[LogicalPlan]): LogicalPlan = {
    val withSubqueries =
      plan.transformAllExpressionsWithPruning(_.containsPattern(PLAN_EXPRESSION)) {
        case s: SubqueryExpression => s.withNewPlan(everywhere(s.plan, rule))
      }
    rule(withSubqueries)
  }
}
