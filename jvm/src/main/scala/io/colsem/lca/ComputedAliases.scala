package io.colsem.lca

import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, LateralColumnAliasReference}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.LATERAL_COLUMN_ALIAS_REFERENCE

/** The columns colsem computes for lateral aliases below a SELECT list, and the naming-only
 *  native references it leaves in unaliased items: what every part of the rewrite and the
 *  reporting rules agree on. */
private[lca] object ComputedAliases {

  /** Prefix of the names aliases are computed under below their SELECT list. */
  val PrivatePrefix = "__colsem_lca_"

  /** `plan`'s output without the columns computed for lateral aliases: the columns a name in the
   *  SELECT list above it may mean, and so the ones an error may suggest. */
  def visibleOutput(plan: LogicalPlan): Seq[Attribute] =
    plan.output.filterNot(_.name.startsWith(PrivatePrefix))

  /** Marks the native LateralColumnAliasReference nodes colsem puts into unaliased items only so
   *  that Spark names those items exactly as its native support would. */
  val NamingOnly: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.lateralAlias.namingOnly")

  /** Once an item has its name, its naming-only references become the attributes they wrap. */
  def unwrapNamedReferences(plan: LogicalPlan): LogicalPlan = plan.mapExpressions { e =>
    if (e.exists(_.isInstanceOf[UnresolvedAlias])) e
    else e.transformWithPruning(_.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE)) {
      case r: LateralColumnAliasReference if r.getTagValue(NamingOnly).isDefined =>
        r.ne match {
          case a: Alias => a.child
          case other => other
        }
    }
  }
}
