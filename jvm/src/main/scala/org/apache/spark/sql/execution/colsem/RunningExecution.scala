package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.SQLExecution

/**
 * The SQL execution running on this thread: its id is the `spark.sql.execution.id` local property
 * that `SQLExecution.withNewExecutionId` sets while a query or command runs, and its
 * QueryExecution is in SQLExecution's registry for as long as it runs (`getQueryExecution`, on
 * every line from 3.5 to 4.3). Under sql.execution for that registry.
 */
object RunningExecution {

  /** The running execution's logical plan (the command, for a command), if one runs here. */
  def plan(session: SparkSession): Option[LogicalPlan] =
    Option(session.sparkContext.getLocalProperty(SQLExecution.EXECUTION_ID_KEY))
      .flatMap(v => scala.util.Try(v.toLong).toOption)
      .flatMap(id => Option(SQLExecution.getQueryExecution(id)))
      .map(_.logical)
}
