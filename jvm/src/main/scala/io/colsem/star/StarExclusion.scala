package io.colsem.star

import java.util.regex.Pattern

import org.apache.spark.sql.internal.SQLConf

import io.colsem.{ColsemConf, ColsemErrors}

/**
 * The session's `*` settings, read once per query: which strategies of
 * `spark.colsem.star.exclude` are on and, for PATTERN, the regular expression. Holds the pattern's
 * text, not a compiled `Pattern` (which has no value equality), because it becomes part of a plan.
 */
final case class StarExclusion(tagged: Boolean, patternText: Option[String]) {
  @transient private lazy val compiled = patternText.map(Pattern.compile)

  /** Whether PATTERN hides a column of this name: the whole name must match. */
  def patternMatches(name: String): Boolean = compiled.exists(_.matcher(name).matches())

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

  /** None when `*` is vanilla: colsem off or no strategy chosen (the default). */
  def read(conf: SQLConf): Option[StarExclusion] =
    if (!ColsemConf.isEnabled(conf)) None
    else {
      val strategies = ColsemConf.StarExclude.readFrom(conf)
      if (strategies.isEmpty) None
      else Some(StarExclusion(strategies.contains(Tagged), patternIf(strategies, conf)))
    }

  /** The settings as the colsem_columns() report shows them: every marker is listed there, the
   *  ones these settings honour are marked hidden. */
  def current(conf: SQLConf): StarExclusion =
    read(conf).getOrElse(StarExclusion(tagged = false, patternText = None))

  /** The current pattern whether or not PATTERN is on, so a report can say what it would hide. */
  def configuredPattern(conf: SQLConf): Option[String] =
    Option(ColsemConf.StarExcludePattern.readFrom(conf)).filter(_.nonEmpty)

  private def patternIf(strategies: Seq[String], conf: SQLConf): Option[String] =
    if (!strategies.contains(PatternStrategy)) None
    else configuredPattern(conf).orElse(throw ColsemErrors.starPatternRequired())
}
