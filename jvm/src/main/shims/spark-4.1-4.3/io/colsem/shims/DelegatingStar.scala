package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.{ExpandStarParameters, Star}
import org.apache.spark.sql.catalyst.expressions.{LeafExpression, NamedExpression, Unevaluable}

/** A star that expands to what [[expansion]] makes of the star it wraps. Spark 4.1 and later:
 *  stars expand through `expandStar(ExpandStarParameters)`. */
abstract class DelegatingStar extends LeafExpression with Star with Unevaluable {
  def star: Star

  /** The expansion, given the wrapped star's (by name: not computed when not used). */
  def expansion(wrapped: => Seq[NamedExpression]): Seq[NamedExpression]

  override def expandStar(parameters: ExpandStarParameters): Seq[NamedExpression] =
    expansion(star.expandStar(parameters))
}
