package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction

/** Spark 3.5 to 4.1: `ignoreNulls` is a Boolean. */
object UnresolvedFunctions {
  def ignoresNulls(u: UnresolvedFunction): Boolean = u.ignoreNulls
}
