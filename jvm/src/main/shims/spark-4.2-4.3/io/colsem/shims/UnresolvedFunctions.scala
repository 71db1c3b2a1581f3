package io.colsem.shims

import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction

/** Spark 4.2 and later: `ignoreNulls` is an Option (None: the call said neither IGNORE nor
 *  RESPECT NULLS). */
object UnresolvedFunctions {
  def ignoresNulls(u: UnresolvedFunction): Boolean = u.ignoreNulls.contains(true)
}
