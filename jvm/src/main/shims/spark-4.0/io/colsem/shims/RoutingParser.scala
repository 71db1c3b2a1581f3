package io.colsem.shims

import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** Spark 4.0's ParserInterface is the lines' shared one. */
class RoutingParser(delegate: ParserInterface, route: (String, LogicalPlan) => LogicalPlan)
  extends RoutingParserBase(delegate, route)
