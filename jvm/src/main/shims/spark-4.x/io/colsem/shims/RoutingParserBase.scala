package io.colsem.shims

import org.apache.spark.sql.catalyst.{FunctionIdentifier, TableIdentifier}
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.parser.ParserInterface
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.{DataType, StructType}

/**
 * A parser that hands every call to the parser it wraps (Spark's, or another extension's) and
 * passes each statement's plan, with its SQL text, through `route`: the methods Spark 4's lines
 * share. Each line's [[RoutingParser]] adds what its ParserInterface has besides; a class, not a
 * java.lang.reflect.Proxy, so every exception the wrapped parser throws reaches Spark unchanged.
 */
abstract class RoutingParserBase(
    protected val delegate: ParserInterface,
    protected val route: (String, LogicalPlan) => LogicalPlan)
  extends ParserInterface {

  override def parsePlan(sqlText: String): LogicalPlan = route(sqlText, delegate.parsePlan(sqlText))

  override def parseExpression(sqlText: String): Expression = delegate.parseExpression(sqlText)

  override def parseTableIdentifier(sqlText: String): TableIdentifier =
    delegate.parseTableIdentifier(sqlText)

  override def parseFunctionIdentifier(sqlText: String): FunctionIdentifier =
    delegate.parseFunctionIdentifier(sqlText)

  override def parseMultipartIdentifier(sqlText: String): Seq[String] =
    delegate.parseMultipartIdentifier(sqlText)

  override def parseQuery(sqlText: String): LogicalPlan = delegate.parseQuery(sqlText)

  override def parseRoutineParam(sqlText: String): StructType = delegate.parseRoutineParam(sqlText)

  override def parseTableSchema(sqlText: String): StructType = delegate.parseTableSchema(sqlText)

  override def parseDataType(sqlText: String): DataType = delegate.parseDataType(sqlText)
}
