package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.{Resolver, Star}
import org.apache.spark.sql.catalyst.expressions.{NamedExpression, Unevaluable}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/** A star that expands to what [[expansion]] makes of the star it wraps. Spark 3.5: `Star` is an
 *  abstract class (a leaf expression) expanding through `expand(input, resolver)`. */
abstract class DelegatingStar extends Star with Unevaluable {
  def star: Star

  /** The expansion, given the wrapped star's (by name: not computed when not used). */
  def expansion(wrapped: => Seq[NamedExpression]): Seq[NamedExpression]

  override def expand(input: LogicalPlan, resolver: Resolver): Seq[NamedExpression] =
    expansion(star.expand(input, resolver))
}
