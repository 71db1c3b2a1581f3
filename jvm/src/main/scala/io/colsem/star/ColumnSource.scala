package io.colsem.star

import java.util.Locale

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.catalog.{CatalogTable, HiveTableRelation}
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{CTERelationRef, LeafNode, LogicalPlan, View}
import org.apache.spark.sql.catalyst.trees.Origin
import org.apache.spark.sql.execution.datasources.{FileFormat, HadoopFsRelation, LogicalRelation}
import org.apache.spark.sql.execution.colsem.SessionCatalogTables
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

import io.colsem.{ColsemErrors, StarStrategy}

/**
 * A table, view or DataFrame leaf whose own columns `*` may leave out: what kind of object it is,
 * its name when it has one, its columns, and its `colsem.hidden_columns` property.
 */
final case class ColumnSource(
    kind: String,
    name: Option[String],
    output: Seq[Attribute],
    hiddenProperty: Option[String]) {

  /** Each column with its markers, in column order. A property naming a column the source does
   *  not have is an error: silently ignoring it would show a column its owner meant to hide. */
  def markers(
      configuredPattern: Option[String],
      resolver: Resolver,
      origin: Option[Origin] = None): Seq[(Attribute, Seq[HidingMarker])] = {
    val listed = HiddenColumnTags.listedNames(hiddenProperty)
    // Names compare as the session's resolver says; a set of keys keeps wide tables linear.
    val key: String => String =
      if (resolver("a", "A")) _.toLowerCase(Locale.ROOT) else identity
    val columnKeys = output.map(a => key(a.name)).toSet
    val (known, unknown) = listed.partition(n => columnKeys.contains(key(n)))
    val listedKeys = known.map(key).toSet
    if (unknown.nonEmpty) {
      throw ColsemErrors.unknownHiddenColumns(
        kind,
        name.getOrElse("?"),
        unknown,
        known,
        output.map(_.name),
        origin)
    }
    val pattern = configuredPattern.map(java.util.regex.Pattern.compile)
    output.map { a =>
      val byProperty = listedKeys.contains(key(a.name)).option(
        HidingMarker(
          StarStrategy.Tagged,
          s"${kind.toLowerCase(Locale.ROOT)} property ${HiddenColumnTags.PropertyKey}"))
      val byMetadata = HiddenColumnTags.taggedByMetadata(a).option(
        HidingMarker(StarStrategy.Tagged, s"field metadata ${HiddenColumnTags.MetadataKey}"))
      val byPattern = pattern.filter(_.matcher(a.name).matches()).map(p =>
        HidingMarker(
          StarStrategy.Pattern,
          s"name matches spark.colsem.star.excludePattern '${p.pattern}'"))
      a -> (byProperty ++ byMetadata ++ byPattern).toSeq
    }
  }

  private implicit class OptionIf(b: Boolean) {
    def option[T](t: => T): Option[T] = if (b) Some(t) else None
  }
}

object ColumnSource {

  /** The source a plan node is, if it is one. A CTE reference is not: its columns were selected
   *  explicitly by the CTE's query. */
  def of(plan: LogicalPlan): Option[ColumnSource] = plan match {
    case v: View =>
      Some(ColumnSource(
        "VIEW",
        Some(v.desc.identifier.unquotedString),
        v.output,
        v.desc.properties.get(HiddenColumnTags.PropertyKey)))
    case r: LogicalRelation =>
      Some(r.catalogTable.map(table(_, r.output)).getOrElse(tableAtPath(r)))
    case r: HiveTableRelation => Some(table(r.tableMeta, r.output))
    case r: DataSourceV2Relation =>
      Some(ColumnSource(
        "TABLE",
        Some(r.table.name()),
        r.output,
        Option(r.table.properties().get(HiddenColumnTags.PropertyKey))))
    case _: CTERelationRef => None
    case leaf: LeafNode => Some(ColumnSource("DATAFRAME", None, leaf.output, None))
    case _ => None
  }

  private def table(t: CatalogTable, output: Seq[Attribute]): ColumnSource =
    ColumnSource(
      "TABLE",
      Some(t.identifier.unquotedString),
      output,
      t.properties.get(HiddenColumnTags.PropertyKey).orElse(formatProperty(t)))

  /**
   * A file relation without a catalog entry: a read by path. Spark's own file formats keep no
   * table properties there; a folder with a Delta log is a table the session catalog reads as
   * `delta`.`<path>`, with the properties of its transaction log.
   *
   * {{{
   *   SELECT * FROM delta.`/data/events`     LogicalRelation [id, msg, _ts], no catalog entry
   *   spark_catalog.loadTable(delta.`/data/events`)   properties colsem.hidden_columns=_ts
   * }}}
   */
  private def tableAtPath(r: LogicalRelation): ColumnSource = {
    val dataFrame = ColumnSource("DATAFRAME", None, r.output, None)
    r.relation match {
      case fs: HadoopFsRelation
          if !isSparkFileFormat(fs.fileFormat) && fs.location.rootPaths.size == 1 =>
        val session = SparkSession.active
        SessionCatalogTables.pathIdentifier(session, fs.location.rootPaths.head).map {
          case (namespace, path) =>
            ColumnSource(
              "TABLE",
              Some(s"${namespace.mkString(".")}.`$path`"),
              r.output,
              SessionCatalogTables.property(session, namespace, path, HiddenColumnTags.PropertyKey))
        }.getOrElse(dataFrame)
      case _ => dataFrame
    }
  }

  /** Spark's file formats (parquet, orc, csv, ...): their folders are never a format's table. */
  private def isSparkFileFormat(format: FileFormat): Boolean =
    format.getClass.getName.startsWith("org.apache.spark.sql.execution.datasources.")

  /** Spark's own file sources keep table properties in the catalog entry. */
  private val CatalogKeepsProperties =
    Set("parquet", "orc", "csv", "json", "text", "avro", "binaryfile", "hive")

  /**
   * A format that keeps its table properties itself (Delta, in its transaction log) reads as a
   * file relation whose catalog entry has none; the session catalog's DSv2 table has them.
   *
   * {{{
   *   LogicalRelation [id, msg, _ts]            catalog entry: provider delta, no properties
   *   spark_catalog.loadTable(default.events)   DeltaTableV2, properties colsem.hidden_columns=_ts
   * }}}
   */
  private def formatProperty(t: CatalogTable): Option[String] =
    t.provider.map(_.toLowerCase(Locale.ROOT)).filterNot(CatalogKeepsProperties.contains).flatMap {
      _ =>
        SessionCatalogTables.property(
          SparkSession.active,
          t.identifier.database.toSeq,
          t.identifier.table,
          HiddenColumnTags.PropertyKey)
    }
}
