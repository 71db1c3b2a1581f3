package io.colsem.shims

/** Spark 4.2 and later: ROLLUP, CUBE and GROUPING SETS over a SELECT list's alias or ordinal keep
 *  the item's expression id, which an operator above the Aggregate reads. */
object GroupingSetsOverAliases {
  val keepItemIds: Boolean = true
}
