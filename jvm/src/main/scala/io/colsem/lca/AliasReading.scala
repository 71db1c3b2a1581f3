package io.colsem.lca

/** How a reference to an alias computed below its SELECT list reads it ([[Substitution]]). */
private[lca] sealed trait AliasReading

private[lca] object AliasReading {

  /** By the computed attribute under its computed name (a private one, so that every reference is
   *  the same attribute), or as the folded alias's value a level below has resolved. */
  case object ByAttribute extends AliasReading

  /** The column under the name as written, or the folded alias's value built again: where the
   *  reference names an unaliased item, which Spark names from it. */
  case object AsWritten extends AliasReading

  /** In an item without an alias, which Spark names from its text: native lateral alias
   *  references where the native support would put them (outside window functions, for aliases
   *  computed below), unwrapped once the item has its name; elsewhere [[AsWritten]]. */
  case object ForNaming extends AliasReading
}
