package io.colsem.lca

import scala.collection.mutable

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Expression, LeafExpression, UnaryExpression}
import org.apache.spark.sql.catalyst.expressions.codegen.{CodegenContext, ExprCode}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.types.DataType

/**
 * A folded alias's value (alias `alias` of its list) inside the items of the level that reads it,
 * only while [[AliasMaterialization]] resolves that level: the resolved level hands each value
 * back ([[FoldedValue.unwrap]]) as the very node its items hold, so the level, the levels above
 * and the list share one resolved value per folded alias. Resolved apart, a run of F folded
 * aliases is F values of up to F nodes each (quadratic in a long chain, and the analyzer walks
 * each). Transparent to Spark's rules: the child's type, nullability, foldability and value.
 * Never left in a plan; a new node, so no node of the user's plan is marked.
 */
private[lca] final case class FoldedValue(child: Expression, alias: Int) extends UnaryExpression {
  override def dataType: DataType = child.dataType
  override def nullable: Boolean = child.nullable
  override def foldable: Boolean = child.foldable
  override def eval(input: InternalRow): Any = child.eval(input)
  override protected def doGenCode(ctx: CodegenContext, ev: ExprCode): ExprCode = child.genCode(ctx)
  override protected def withNewChildInternal(newChild: Expression): FoldedValue =
    copy(child = newChild)
}

private[lca] object FoldedValue {

  /** `value`, alias j's, held so that the level reading it gives it back resolved. A leaf is not
   *  held: some of Spark's rules read a literal operand itself (DecimalPrecision), and a resolved
   *  leaf is its own resolved value. */
  def hold(j: Int, value: Expression): Expression = value match {
    case leaf: LeafExpression => leaf
    case other => FoldedValue(other, j)
  }

  /** `plan` (a level as the analyzer resolved it over its input) without its FoldedValue nodes,
   *  and the value each held, by alias: the node the plan now holds in its place (the first, for
   *  a value read twice). */
  def unwrap(plan: LogicalPlan): (LogicalPlan, Map[Int, Expression]) = {
    val found = mutable.LinkedHashMap.empty[Int, Expression]
    val unwrapped = plan.transformUp { case node =>
      node.mapExpressions(_.transformUp { case FoldedValue(value, j) =>
        found.getOrElseUpdate(j, value)
        value
      })
    }
    (unwrapped, found.toMap)
  }

  /** `e` without FoldedValue nodes. */
  def strip(e: Expression): Expression = e.transformUp { case FoldedValue(value, _) => value }
}
