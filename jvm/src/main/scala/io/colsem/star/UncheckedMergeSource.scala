package io.colsem.star

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, UnaryNode}

/**
 * The source of a MERGE with `UPDATE SET *` or `INSERT *`, put there by [[HoldStarMergeSources]].
 * It stays unresolved, so neither Spark nor a format's own rule resolves the MERGE's actions, until
 * [[ProtectHiddenColumnsOnMerge]] has compared the source's columns with the target's hidden ones
 * and put the source back.
 */
case class UncheckedMergeSource(child: LogicalPlan) extends UnaryNode {
  override def output: Seq[Attribute] = child.output
  override lazy val resolved: Boolean = false
  override protected def withNewChildInternal(newChild: LogicalPlan): UncheckedMergeSource =
    copy(child = newChild)
}
