package io.colsem.lca

/** The names under which a SELECT list's aliases are computed below it. */
private[lca] sealed trait ComputedNames

private[lca] object ComputedNames {

  /** Their own names and expression ids, as Spark's native support computes them: nothing the
   *  list leaves to Spark could mean them instead of the input's columns. */
  case object Own extends ComputedNames

  /** Names of their own ([[ComputedAliases.PrivatePrefix]]) and new expression ids: under the
   *  aliases' names they would capture a name the list leaves to Spark, or the aliases also stay
   *  in the list (an aggregate list). */
  case object Private extends ComputedNames
}
