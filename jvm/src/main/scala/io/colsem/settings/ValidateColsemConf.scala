package io.colsem.settings

import org.apache.commons.text.similarity.LevenshteinDistance

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.UserQueries

/**
 * Check rule: every `spark.colsem.*` value set in the session parses, and every such key exists.
 * Runs once per analyzed query (under both of Spark's analyzers), so a typo fails the first query
 * instead of silently leaving a feature at its default. Costs a scan of the set keys.
 */
class ValidateColsemConf(session: SparkSession) extends (LogicalPlan => Unit) {

  override def apply(plan: LogicalPlan): Unit =
    if (UserQueries.isUserQuery(plan)) validate()

  private def validate(): Unit = {
    val conf = session.sessionState.conf
    conf.getAllConfs.keysIterator.filter(_.startsWith(ColsemConf.Prefix)).foreach { key =>
      ColsemConf.find(key) match {
        case Some(entry) => entry.validate(conf)
        case None => throw ColsemErrors.unknownConf(
            key,
            ValidateColsemConf.closestKey(key),
            ColsemConf.all.map(_.key))
      }
    }
  }
}

object ValidateColsemConf {

  private val distance = LevenshteinDistance.getDefaultInstance

  /** The known key a typo most likely meant, if one is close enough to suggest. */
  def closestKey(key: String): Option[String] = {
    val scored =
      ColsemConf.all.map(e => e.key -> distance.apply(e.key.toLowerCase, key.toLowerCase))
    scored.sortBy(_._2).headOption.collect { case (k, d) if d <= math.max(3, key.length / 4) => k }
  }
}
