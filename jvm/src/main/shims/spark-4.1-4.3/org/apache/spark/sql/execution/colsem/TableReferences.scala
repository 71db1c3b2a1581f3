package org.apache.spark.sql.execution.colsem

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.analysis.V2TableReference
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.connector.catalog.Table

/**
 * A temp view's placeholder for a DSv2 table (Spark 4.1 and later): the view keeps a reference,
 * and each read of the view loads the table again in its place. While the view's reader resolves,
 * the reference stands where the table's relation will: the table it names, with its columns.
 * The class is `private[sql]`, hence this package.
 */
object TableReferences {
  def table(plan: LogicalPlan): Option[(Table, Seq[Attribute])] = plan match {
    case r: V2TableReference =>
      try Some(r.catalog.loadTable(r.identifier) -> r.output)
      catch { case NonFatal(_) => None } // a dropped table: Spark's own error follows
    case _ => None
  }
}
