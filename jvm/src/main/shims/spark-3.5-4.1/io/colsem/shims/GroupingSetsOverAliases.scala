package io.colsem.shims

/** Spark 3.5 to 4.1: ROLLUP, CUBE and GROUPING SETS over a SELECT list's alias or ordinal group by
 *  the item's own expression and give the item a new expression id, so an operator above the
 *  Aggregate cannot read the item by the id the list had (MISSING_ATTRIBUTES). */
object GroupingSetsOverAliases {
  val keepItemIds: Boolean = false
}
