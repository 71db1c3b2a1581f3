package org.apache.spark.sql.execution.colsem

import scala.util.Try

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.{QueryExecution, SQLExecution}

/**
 * Which query is planned or run on this thread (Spark 3.5 to 4.1). These lines mark no phase of a
 * QueryExecution with its id; the only handle is the SQL execution an action opens
 * (`SQLExecution.withNewExecutionId`, around planning and running its plan), which maps back to
 * its QueryExecution. So the analyzed plan is read from there when planning starts, and a plan
 * planned outside any action (`explain()`) is not checked.
 */
object RunningQuery {

  /** Whether [[id]] is known while a query is analyzed: no, only while it is planned and run. */
  val idDuringAnalysis: Boolean = false

  private def execution(session: SparkSession): Option[QueryExecution] =
    Option(session.sparkContext.getLocalProperty(SQLExecution.EXECUTION_ID_KEY))
      .flatMap(v => Try(v.toLong).toOption)
      .flatMap(executionId => Option(SQLExecution.getQueryExecution(executionId)))

  /** `QueryExecution.id` of the query whose SQL execution is running on this thread. */
  def id(session: SparkSession): Option[Long] = execution(session).map(_.id)

  /** That query's analyzed plan. */
  def analyzedPlan(session: SparkSession): Option[LogicalPlan] = execution(session).map(_.analyzed)
}
