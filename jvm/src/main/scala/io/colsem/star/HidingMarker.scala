package io.colsem.star

/** One reason a column may be left out of `*`, and the strategy that honours it. */
final case class HidingMarker(strategy: String, reason: String)
