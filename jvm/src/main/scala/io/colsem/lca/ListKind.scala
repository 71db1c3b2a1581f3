package io.colsem.lca

/** Which SELECT list [[AliasMaterialization]] computes aliases for, which decides what the
 *  computed aliases may be. */
private[lca] sealed trait ListKind

private[lca] object ListKind {

  /** A projection's list: each alias is computed below and the list reads it there; in lists
   *  longer than native Spark's depth, short plain chains may be folded into their users. */
  case object Projection extends ListKind

  /** An aggregate list: per-row copies of its aliases are computed below under private names and
   *  the aliases also stay in the list; nothing is folded. */
  case object Aggregate extends ListKind
}
