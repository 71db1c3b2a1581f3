package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.{Resolver, Star}
import org.apache.spark.sql.catalyst.expressions.{LeafExpression, NamedExpression, Unevaluable}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** A star that expands to what [[expansion]] makes of the star it wraps. Spark 4.0: stars
 *  expand through `expand(input, resolver)`. */
abstract class DelegatingStar extends LeafExpression with Star with Unevaluable {
  def star: Star

  /** The expansion, given the wrapped star's (by name: not computed when not used). */
  def expansion(wrapped: => Seq[NamedExpression]): Seq[NamedExpression]

  override def expand(input: LogicalPlan, resolver: Resolver): Seq[NamedExpression] =
    expansion(star.expand(input, resolver))
}
