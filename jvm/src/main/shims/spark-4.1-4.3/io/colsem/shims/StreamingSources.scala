package io.colsem.shims

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.datasources.DataSource
import org.apache.spark.sql.execution.streaming.runtime.StreamingRelation

/** The data source a stream reads through Spark's DSv1 streaming relation (`readStream.table`,
 *  `readStream.format(...).load(...)`). Spark 4.1 and later: the relation lives in
 *  `execution.streaming.runtime`. */
object StreamingSources {
  def dataSource(plan: LogicalPlan): Option[DataSource] = plan match {
    case r: StreamingRelation => Some(r.dataSource)
    case _ => None
  }
}
