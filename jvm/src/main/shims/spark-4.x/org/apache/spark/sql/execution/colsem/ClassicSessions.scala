package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.classic.{SparkSession => ClassicSession}

/** Spark 4 splits the session API from the classic (JVM) session that has the session state. */
object ClassicSessions {
  def asClassic(session: SparkSession): ClassicSession = session.asInstanceOf[ClassicSession]
}
