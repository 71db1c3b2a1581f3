package io.colsem.shims

/** Spark 4.2 and later: native lateral aliases answer under ROLLUP, CUBE and GROUPING SETS. */
object NativeLateralAliases {
  val underGroupingSets: Boolean = true
}
