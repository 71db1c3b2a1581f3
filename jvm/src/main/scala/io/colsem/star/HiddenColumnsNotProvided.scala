package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.Resolver

/** A write's target (`tableName`), its hidden `columns` the data written lacks, and the columns of
 *  the target it does provide, in table order. */
final case class HiddenColumnsNotProvided(
    tableName: String,
    columns: Seq[String],
    providedColumns: Seq[String]) {

  /** The same, for the lacking columns among `names` only; None when there are none. */
  def only(names: Seq[String], resolver: Resolver): Option[HiddenColumnsNotProvided] =
    Some(copy(columns = columns.filter(c => names.exists(resolver(_, c)))))
      .filter(_.columns.nonEmpty)
}
