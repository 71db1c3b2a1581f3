package io.colsem.vocabulary

import org.apache.spark.sql.catalyst.expressions.Alias
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

/**
 * Marks that rules of one feature leave in a plan and rules of another read: the bottom layer,
 * so that features never import each other.
 */
object PlanTags {

  /** An Alias a naming dialect made for an unaliased item: its name is no alias the user wrote,
   *  so lateral-alias rules do not take it for one. */
  val ImplicitName: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.naming.implicit")

  def isImplicitName(a: Alias): Boolean = a.getTagValue(ImplicitName).isDefined
}
