package io.colsem.vocabulary

import org.apache.spark.sql.catalyst.expressions.{Expression, NamedExpression}

/**
 * An unaliased SELECT item whose name a feature has decided but attaches later (the naming
 * dialects' alias), the way Spark's UnresolvedAlias holds an item until ResolveAliases names it.
 * Other features look through it to the item's expression, and keep it around a rewritten one.
 */
trait PendingItemName extends NamedExpression {
  def child: Expression

  /** The same pending name over another expression. */
  def withItem(e: Expression): NamedExpression
}
