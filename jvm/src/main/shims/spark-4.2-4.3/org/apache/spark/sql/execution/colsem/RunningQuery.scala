package org.apache.spark.sql.execution.colsem

import scala.util.Try

import org.apache.spark.SparkContext
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Which query's analysis, optimization or planning runs on this thread (Spark 4.2 and later):
 * QueryExecution sets its id as a local property around each of its phases, analysis included,
 * so the check rule that ends analysis records the analyzed plan under that id.
 */
object RunningQuery {

  /** Whether [[id]] is known while a query is analyzed (not only while it is planned). */
  val idDuringAnalysis: Boolean = true

  /** `QueryExecution.id` of the query whose phase is running on this thread. */
  def id(session: SparkSession): Option[Long] =
    Option(session.sparkContext.getLocalProperty(SparkContext.DATASET_QUERY_EXECUTION_ID_KEY))
      .flatMap(v => Try(v.toLong).toOption)

  /** Not needed here: the analyzed plan was recorded when analysis ended. */
  def analyzedPlan(session: SparkSession): Option[LogicalPlan] = None
}
