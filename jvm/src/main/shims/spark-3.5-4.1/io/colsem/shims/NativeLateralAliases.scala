package io.colsem.shims

/** Spark 3.5 to 4.1: native lateral aliases fail under ROLLUP, CUBE and GROUPING SETS when an
 *  item reads a grouped item's alias (`SELECT k AS a, a + 1 AS b ... GROUP BY CUBE(a)`:
 *  INTERNAL_ERROR "Resolved plan should not contain any LateralColumnAliasReference"). */
object NativeLateralAliases {
  val underGroupingSets: Boolean = false
}
