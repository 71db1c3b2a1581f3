package io.colsem.star

import org.apache.spark.sql.catalyst.expressions.Attribute

/**
 * How a column is tagged hidden: listed by its table's or view's `colsem.hidden_columns` property,
 * or by its own field metadata `colsem.hidden`.
 */
object HiddenColumnTags {
  val PropertyKey = "colsem.hidden_columns"
  val MetadataKey = "colsem.hidden"

  /** Names listed by a `colsem.hidden_columns` value: comma-separated, optionally back-quoted. */
  def listedNames(property: Option[String]): Seq[String] =
    property.toSeq.flatMap(_.split(",")).map(_.trim.stripPrefix("`").stripSuffix("`").trim)
      .filter(_.nonEmpty)

  def taggedByMetadata(a: Attribute): Boolean =
    a.metadata.contains(MetadataKey) &&
      (scala.util.Try(a.metadata.getBoolean(MetadataKey)).getOrElse(false) ||
        scala.util.Try(a.metadata.getString(MetadataKey)).toOption
          .exists(_.trim.equalsIgnoreCase("true")))
}
