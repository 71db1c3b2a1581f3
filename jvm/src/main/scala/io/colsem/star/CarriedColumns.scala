package io.colsem.star

import org.apache.spark.sql.catalyst.expressions.ExprId
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

/**
 * What a DataFrame call's projection carried over from its input without the user naming it, as
 * [[MarkCarriedColumns]] found it before analysis (after it, `drop("score")` and
 * `select("id", "name", "_row_id")` are the same plan). [[HiddenColumns]] passes a hidden column
 * through a carried projection as through a filter; a column the user named (`withColumn("_row_id",
 * ...)`, `withColumnRenamed("_row_id", "rid")`) is a new attribute there, and shows.
 *
 * `rewritten`: the columns the call rewrote in place under their own name without the user naming
 * them (`na.fill(0)` over every numeric column builds `coalesce(_row_id, 0) AS _row_id`, a new
 * attribute), each new expression id with the one it replaces: they keep that column's hiding.
 */
final case class CarriedColumns(rewritten: Map[ExprId, ExprId] = Map.empty)

object CarriedColumns {

  val Tag: TreeNodeTag[CarriedColumns] = TreeNodeTag[CarriedColumns]("colsem.star.carried")

  /** What a carried projection (or a `drop` Spark turns into one) carried; None for a choice. */
  def of(plan: LogicalPlan): Option[CarriedColumns] = plan.getTagValue(Tag)

  def isCarried(p: Project): Boolean = of(p).isDefined
}

/**
 * The inputs of a by-name union (`unionByName`), by their output ids as the call saw them: Spark's
 * ResolveUnion later puts a projection over an input to reorder its columns or add the missing
 * ones (NULL), which is no choice of the user's; [[unionInput]] looks through it.
 */
final case class UnionInputs(outputs: Seq[Seq[ExprId]])

object UnionInputs {

  val Tag: TreeNodeTag[UnionInputs] = TreeNodeTag[UnionInputs]("colsem.star.unionInputs")

  /** The user's input under the projection Spark added over it, if it added one. */
  def unionInput(child: LogicalPlan, inputs: UnionInputs): LogicalPlan = child match {
    case p: Project if inputs.outputs.contains(p.child.output.map(_.exprId)) => p.child
    case other => other
  }
}
