package io.colsem.respond

import org.apache.spark.sql.{DataFrame, Dataset, Row}

import io.colsem.shims.SparkShims

/**
 * What `colsem.respond` calls through py4j: the query's DataFrame with the present columns of
 * [[PresenceColumns]] appended. Python renders the rows; everything about which column comes from
 * which lookup is decided here, on the analyzed plan.
 */
object ResponsePlan {

  /** A DataFrame with present columns, and for each original column its present column's ordinal
   *  (or -1). An Array so that py4j hands Python a plain list. */
  final class WithPresence(val dataFrame: DataFrame, val presentColumns: Array[Int])

  def withPresence(df: Dataset[Row]): WithPresence = {
    val analyzed = SparkShims.analyzedPlan(df)
    val (plan, ordinals) = PresenceColumns.addTo(analyzed)
    val result = if (plan eq analyzed) df else SparkShims.dataFrameOf(df, plan)
    new WithPresence(result, ordinals.toArray)
  }
}
