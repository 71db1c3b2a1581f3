package io.colsem.lca

/** What an aggregate SELECT list's Aggregate sits under, as far as its plan shape matters. */
private[lca] sealed trait AggregateParent

private[lca] object AggregateParent {

  /** A HAVING, which Spark resolves only with its Aggregate directly below it: nothing may be put
   *  between the two. */
  case object Having extends AggregateParent

  /** Anything else. */
  case object Other extends AggregateParent
}
