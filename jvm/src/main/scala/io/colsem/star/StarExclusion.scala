package io.colsem.star

import org.apache.spark.sql.internal.SQLConf

import io.colsem.{ColsemConf, ColsemErrors}

/**
 * The session's `*` settings, read once per query: which strategies of
 * `spark.colsem.star.exclude` are on and, for PATTERN, the regular expression. Holds the pattern's
 * text, not a compiled `Pattern` (which has no value equality), because it becomes part of a plan.
 */
final case class StarExclusion(
    tagged: Boolean,
    patternText: Option[String],
    patternMissing: Boolean = false) {

  /** Whether a column with these markers is left out of `*`. */
  def hides(markers: Seq[HidingMarker]): Boolean = markers.exists(m => isOn(m.strategy))

  def isOn(strategy: String): Boolean = strategy match {
    case StarExclusion.Tagged => tagged
    case StarExclusion.PatternStrategy => patternText.isDefined
    case _ => false
  }
}

object StarExclusion {
  val Tagged = "TAGGED"
  val PatternStrategy = "PATTERN"

  /** None when `*` is vanilla: colsem off or no strategy chosen (the default). PATTERN without
   *  a pattern is reported only by a query that has a star to expand ([[requirePattern]]): a
   *  session sets the two keys one after the other, and every other statement must keep working
   *  in between. */
  def read(conf: SQLConf): Option[StarExclusion] =
    if (!ColsemConf.isEnabled(conf)) None
    else {
      val strategies = ColsemConf.StarExclude.readFrom(conf)
      if (strategies.isEmpty) None
      else {
        val pattern = if (strategies.contains(PatternStrategy)) configuredPattern(conf) else None
        Some(StarExclusion(
          strategies.contains(Tagged),
          pattern,
          patternMissing = strategies.contains(PatternStrategy) && pattern.isEmpty))
      }
    }

  def requirePattern(exclusion: StarExclusion, conf: SQLConf): Unit =
    if (exclusion.patternMissing) {
      // A pattern that is set but does not compile is the real problem: report that.
      ColsemConf.StarExcludePattern.validate(conf)
      throw ColsemErrors.starPatternRequired()
    }

  /** The settings as the colsem_columns() report shows them: every marker is listed there, the
   *  ones these settings honour are marked hidden. */
  def current(conf: SQLConf): StarExclusion =
    read(conf).getOrElse(StarExclusion(tagged = false, patternText = None))

  /** The current pattern whether or not PATTERN is on, so a report can say what it would hide. */
  def configuredPattern(conf: SQLConf): Option[String] =
    Option(ColsemConf.StarExcludePattern.readFrom(conf)).filter(_.nonEmpty)
}
