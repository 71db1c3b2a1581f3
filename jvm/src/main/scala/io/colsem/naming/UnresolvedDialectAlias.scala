package io.colsem.naming

import org.apache.spark.sql.catalyst.analysis.UnresolvedException
import org.apache.spark.sql.catalyst.expressions.{
  Attribute, ExprId, Expression, NamedExpression, UnaryExpression, Unevaluable
}
import org.apache.spark.sql.catalyst.trees.TreePattern.{TreePattern, UNRESOLVED_ALIAS}
import org.apache.spark.sql.types.DataType

import io.colsem.vocabulary.PendingItemName

/**
 * An unaliased SELECT item whose dialect name is decided (from the expression as parsed) but whose
 * Alias is not: Spark's counterpart is [[org.apache.spark.sql.catalyst.analysis.UnresolvedAlias]],
 * and [[ResolveDialectAliases]] turns this into the Alias Spark's ResolveAliases would make, with
 * this name. Until then it is unresolved, so its SELECT list is too: no operator above resolves
 * against the list early, and no later item of the list sees the name (Spark's native lateral
 * aliases look only at Alias items), as no item sees the name Spark would have given.
 *
 * `bareName`: the item is a name on its own (`S1` under `postgres`, `current_date`), which Spark
 * resolves as a top-level item (a column, or a literal function's own Alias), not as an
 * expression to name.
 *
 * It carries the UNRESOLVED_ALIAS pattern bit so that rules pruned on it visit it; they match
 * UnresolvedAlias by class and leave this node alone.
 */
case class UnresolvedDialectAlias(child: Expression, name: String, bareName: Boolean)
  extends UnaryExpression with PendingItemName with Unevaluable {

  override lazy val resolved: Boolean = false
  override def dataType: DataType = throw new UnresolvedException("dataType")
  override def nullable: Boolean = throw new UnresolvedException("nullable")
  override def exprId: ExprId = throw new UnresolvedException("exprId")
  override def qualifier: Seq[String] = throw new UnresolvedException("qualifier")
  override def toAttribute: Attribute = throw new UnresolvedException("toAttribute")
  override def newInstance(): NamedExpression = throw new UnresolvedException("newInstance")
  override def sql: String = s"${child.sql} AS `$name`"
  override def toString: String = s"$child AS '$name"
  final override val nodePatterns: Seq[TreePattern] = Seq(UNRESOLVED_ALIAS)

  override def withItem(e: Expression): NamedExpression = copy(child = e)

  override protected def withNewChildInternal(newChild: Expression): UnresolvedDialectAlias =
    copy(child = newChild)
}
