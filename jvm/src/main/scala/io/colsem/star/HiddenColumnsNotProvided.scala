package io.colsem.star

/** A write's target (`tableName`), its hidden `columns` the data written lacks, and the columns of
 *  the target it does provide, in table order. */
final case class HiddenColumnsNotProvided(
    tableName: String,
    columns: Seq[String],
    providedColumns: Seq[String])
