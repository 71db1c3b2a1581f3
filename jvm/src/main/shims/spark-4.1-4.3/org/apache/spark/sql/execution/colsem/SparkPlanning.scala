package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.classic.SparkSession
import org.apache.spark.sql.execution.{QueryExecution, SparkPlan}

/** Planning an optimized plan as QueryExecution does (Spark 4.1 and later: no session argument). */
object SparkPlanning {
  def createSparkPlan(session: SparkSession, optimized: LogicalPlan): SparkPlan =
    QueryExecution.createSparkPlan(session.sessionState.planner, optimized)
}
