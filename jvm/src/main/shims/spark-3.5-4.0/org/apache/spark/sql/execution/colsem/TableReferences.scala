package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connector.catalog.Table

/** Spark 3.5 and 4.0 keep a temp view's DSv2 relation as it is: no table references. */
object TableReferences {
  def table(plan: LogicalPlan): Option[(Table, Seq[Attribute])] = None
}
