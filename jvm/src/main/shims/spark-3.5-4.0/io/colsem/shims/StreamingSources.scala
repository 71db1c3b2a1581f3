package io.colsem.shims

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.datasources.DataSource
import org.apache.spark.sql.execution.streaming.StreamingRelation

/** The data source a stream reads through Spark's DSv1 streaming relation (`readStream.table`,
 *  `readStream.format(...).load(...)`). Spark 3.5 and 4.0: the relation lives in
 *  `execution.streaming`. */
object StreamingSources {
  def dataSource(plan: LogicalPlan): Option[DataSource] = plan match {
    case r: StreamingRelation => Some(r.dataSource)
    case _ => None
  }
}
