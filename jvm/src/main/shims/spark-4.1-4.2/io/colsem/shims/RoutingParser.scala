package io.colsem.shims

import org.apache.spark.sql.catalyst.parser.{ParameterContext, ParserInterface}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** Spark 4.1 and 4.2 parse parameterized statements through `parsePlanWithParameters`. */
class RoutingParser(delegate: ParserInterface, route: (String, LogicalPlan) => LogicalPlan)
  extends RoutingParserBase(delegate, route) {

  override def parsePlanWithParameters(sqlText: String, context: ParameterContext): LogicalPlan =
    route(sqlText, delegate.parsePlanWithParameters(sqlText, context))
}
