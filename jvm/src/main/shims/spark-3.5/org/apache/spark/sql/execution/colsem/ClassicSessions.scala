package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.SparkSession

/** Spark 3.5 has one kind of session, which has the session state. */
object ClassicSessions {
  def asClassic(session: SparkSession): SparkSession = session
}
