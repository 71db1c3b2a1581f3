package io.colsem.vocabulary

import org.apache.spark.sql.catalyst.analysis.{UnresolvedAttribute, UnresolvedException}
import org.apache.spark.sql.catalyst.expressions.{LeafExpression, Unevaluable}
import org.apache.spark.sql.catalyst.trees.TreePattern.{TreePattern, UNRESOLVED_ATTRIBUTE}
import org.apache.spark.sql.types.DataType

/**
 * A name in a SELECT list that an earlier item of the same list defines as an alias. It stays
 * unresolved, and Spark's own resolution does not recognize it, until the lateral-alias rule
 * decides what it is: a column of the FROM input (which wins), an earlier alias, or neither (then
 * it becomes the original UnresolvedAttribute again, and Spark resolves or reports it as usual).
 *
 * It carries the UNRESOLVED_ATTRIBUTE pattern bit, so rules pruned on that bit still visit it; they
 * match UnresolvedAttribute by class and leave this node alone.
 */
case class LateralAliasCandidate(attribute: UnresolvedAttribute) extends LeafExpression
  with Unevaluable {
  override lazy val resolved: Boolean = false
  override def dataType: DataType = throw new UnresolvedException("dataType")
  override def nullable: Boolean = throw new UnresolvedException("nullable")
  override def sql: String = attribute.sql
  override def toString: String = s"'lateral:${attribute.name}"
  final override val nodePatterns: Seq[TreePattern] = Seq(UNRESOLVED_ATTRIBUTE)

  def nameParts: Seq[String] = attribute.nameParts
}
