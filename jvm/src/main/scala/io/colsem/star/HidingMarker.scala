package io.colsem.star

import io.colsem.settings.StarStrategy

/** One reason a column may be left out of `*`, and the strategy that honours it. */
final case class HidingMarker(strategy: StarStrategy, reason: String)
