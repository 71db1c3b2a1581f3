package io.colsem.shims

import org.apache.spark.sql.catalyst.parser.{
  ParameterContext, ParserInterface, SqlStatementSplitResult, TemporalIdentifier
}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** Spark 4.3 parses parameterized statements through `parsePlanWithParameters`, and has the
 *  script splitter and temporal table identifiers besides. */
class RoutingParser(delegate: ParserInterface, route: (String, LogicalPlan) => LogicalPlan)
  extends RoutingParserBase(delegate, route) {

  override def parsePlanWithParameters(sqlText: String, context: ParameterContext): LogicalPlan =
    route(sqlText, delegate.parsePlanWithParameters(sqlText, context))

  override def parseTemporalTableIdentifier(sqlText: String): TemporalIdentifier =
    delegate.parseTemporalTableIdentifier(sqlText)

  override def splitStatements(sqlText: String): SqlStatementSplitResult =
    delegate.splitStatements(sqlText)
}
