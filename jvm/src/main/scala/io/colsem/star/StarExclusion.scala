package io.colsem.star

import org.apache.spark.sql.internal.SQLConf

import io.colsem.errors.ColsemErrors
import io.colsem.settings.{ColsemConf, StarStrategy}

/**
 * The session's `*` settings, read once per query: which strategies of
 * `spark.colsem.star.exclude` are on and, for PATTERN, the regular expression. Holds the pattern's
 * text, not a compiled `Pattern` (which has no value equality), because it becomes part of a plan.
 */
final case class StarExclusion(strategies: Set[StarStrategy], patternText: Option[String]) {

  /** Whether a column with these markers is left out of `*`. */
  def hides(markers: Seq[HidingMarker]): Boolean = markers.exists(m => isOn(m.strategy))

  /** Whether the strategy is on and can hide a column (PATTERN needs a pattern). */
  def isOn(strategy: StarStrategy): Boolean = strategy match {
    case StarStrategy.Tagged => strategies.contains(StarStrategy.Tagged)
    case StarStrategy.Pattern => strategies.contains(StarStrategy.Pattern) && patternText.isDefined
  }

  /** PATTERN is on without a pattern. */
  def lacksPattern: Boolean = strategies.contains(StarStrategy.Pattern) && patternText.isEmpty
}

object StarExclusion {

  /** None when `*` is vanilla: colsem off or no strategy chosen (the default). PATTERN without
   *  a pattern is reported only by a query that has a star to expand ([[requirePattern]]): a
   *  session sets the two keys one after the other, and every other statement must keep working
   *  in between. */
  def read(conf: SQLConf): Option[StarExclusion] =
    if (!ColsemConf.isEnabled(conf)) None
    else {
      val strategies = ColsemConf.StarExclude.readFrom(conf).toSet
      if (strategies.isEmpty) None
      else {
        val pattern =
          if (strategies.contains(StarStrategy.Pattern)) configuredPattern(conf) else None
        Some(StarExclusion(strategies, pattern))
      }
    }

  def requirePattern(exclusion: StarExclusion, conf: SQLConf): Unit =
    if (exclusion.lacksPattern) {
      // A pattern that is set but does not compile is the real problem: report that.
      ColsemConf.StarExcludePattern.validate(conf)
      throw ColsemErrors.starPatternRequired()
    }

  /** The settings as the colsem_columns() report shows them: every marker is listed there, the
   *  ones these settings honour are marked hidden. */
  def current(conf: SQLConf): StarExclusion =
    read(conf).getOrElse(StarExclusion(Set.empty, patternText = None))

  /** The current pattern whether or not PATTERN is on, so a report can say what it would hide. */
  def configuredPattern(conf: SQLConf): Option[String] =
    Option(ColsemConf.StarExcludePattern.readFrom(conf)).filter(_.nonEmpty)
}
