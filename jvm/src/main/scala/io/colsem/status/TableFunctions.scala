package io.colsem.status

import org.apache.spark.sql.catalyst.FunctionIdentifier
import org.apache.spark.sql.catalyst.expressions.{Expression, ExpressionInfo}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** What `SparkSessionExtensions.injectTableFunction` takes, for colsem's SQL-visible functions:
 *  every client (Spark Connect, JDBC, spark-sql) reaches them through plain SQL. */
object TableFunctions {
  type Description = (FunctionIdentifier, ExpressionInfo, Seq[Expression] => LogicalPlan)

  /** `usage` follows the name in DESCRIBE FUNCTION (`(args) - what it returns`); `example` is one
   *  SQL statement; `owner` is the object implementing it (DESCRIBE FUNCTION EXTENDED's class). */
  def describe(owner: AnyRef, name: String, usage: String, example: String)(
      build: Seq[Expression] => LogicalPlan): Description = (
    FunctionIdentifier(name),
    new ExpressionInfo(
      owner.getClass.getName.stripSuffix("$"),
      null,
      name,
      s"$name$usage",
      "",
      s"\n    Examples:\n      > $example\n",
      "",
      "",
      "0.1.0",
      "",
      "scala_udf"),
    build)
}
