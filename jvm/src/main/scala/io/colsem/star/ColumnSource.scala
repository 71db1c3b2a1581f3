package io.colsem.star

import java.util.Locale

import org.apache.hadoop.fs.Path

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.catalog.{CatalogTable, HiveTableRelation}
import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{
  CTERelationRef, LeafNode, LogicalPlan, SubqueryAlias, View
}
import org.apache.spark.sql.catalyst.streaming.StreamingRelationV2
import org.apache.spark.sql.catalyst.trees.Origin
import org.apache.spark.sql.catalyst.types.DataTypeUtils
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.execution.datasources.{
  DataSource, FileFormat, HadoopFsRelation, LogicalRelation
}
import org.apache.spark.sql.connect.colsem.PipelineDatasets
import org.apache.spark.sql.execution.colsem.{SessionCatalogTables, TableReferences}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

import io.colsem.errors.ColsemErrors
import io.colsem.settings.StarStrategy
import io.colsem.shims.StreamingSources

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
      val byMetadata = HiddenColumnTags.taggedByMetadata(a).option(ColumnSource.ByMetadata)
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

  /** A column's own field metadata hides it, wherever the column goes. */
  val ByMetadata: HidingMarker =
    HidingMarker(StarStrategy.Tagged, s"field metadata ${HiddenColumnTags.MetadataKey}")

  /** A DataFrame's temp view (`createOrReplaceTempView`): it names that DataFrame, whose columns
   *  are the view's, with their ids. A view made from SQL text is a source of its own. */
  def isDataFrameView(v: View): Boolean = v.isTempView && v.desc.viewText.isEmpty

  /** The source a plan node is, if it is one. A CTE reference is not: its columns were selected
   *  explicitly by the CTE's query. A stream of a table is that table, as FLIP-348's
   *  BATCH_STREAMING asks: `*` over `readStream.table(t)` leaves out what `*` over `t` does. */
  def of(plan: LogicalPlan): Option[ColumnSource] = plan match {
    // A DataFrame's temp view adds its own markers to its DataFrame's ([[HiddenColumns]]).
    case v: View => Some(view(v))
    case r: LogicalRelation =>
      Some(r.catalogTable.map(table(_, r.output)).getOrElse(tableAtPath(r)))
    case r: HiveTableRelation => Some(table(r.tableMeta, r.output))
    case r: DataSourceV2Relation => Some(dsv2Table(r.table, r.output))
    case r: StreamingRelationV2 => Some(dsv2Table(r.table, r.output))
    case _: CTERelationRef => None
    case leaf: LeafNode =>
      TableReferences.table(leaf).map { case (t, output) => dsv2Table(t, output) }
        .orElse(StreamingSources.dataSource(leaf).map(stream(_, leaf.output)))
        .orElse(Some(ColumnSource("DATAFRAME", None, leaf.output, None)))
    case _ => None
  }

  /**
   * A DataFrame leaf under a table's name: how a Declarative Pipeline shows a flow another dataset
   * of the pipeline while it resolves its graph (an empty stand-in of the dataset's inferred
   * schema), carrying the properties the pipeline declares for that dataset. At execution the
   * flow reads the catalog table, which has them: without this, `*` would keep a hidden column
   * when the pipeline creates the flow's table and leave it out when the flow writes to it.
   *
   * {{{
   *   graph resolution:  SubqueryAlias spark_catalog.default.events     declared: hidden _ts
   *                      +- LocalRelation <empty>, [id, v, _ts]
   *   execution:         SubqueryAlias spark_catalog.default.events
   *                      +- Relation [id, v, _ts] parquet               property: hidden _ts
   * }}}
   * Golden: none (a pipeline's plans, which no golden file holds; the test runs both phases):
   *   tests/test_pipelines.py::test_every_feature_in_one_pipeline_run
   */
  def named(nameParts: Seq[String], leaf: LeafNode, resolver: Resolver): Option[ColumnSource] =
    of(leaf).filter(s => s.kind == "DATAFRAME" || isUnnamedStream(leaf)).flatMap { frame =>
      PipelineDatasets.declaredProperty(nameParts, HiddenColumnTags.PropertyKey, resolver).map(p =>
        frame.copy(kind = "TABLE", name = Some(nameParts.mkString(".")), hiddenProperty = Some(p)))
    }

  /** A stream of no catalog's table: the stand-in a pipeline gives a streaming read (a memory
   *  stream). A named table's relation never asks the pipelines. */
  private def isUnnamedStream(leaf: LeafNode): Boolean = leaf match {
    case r: StreamingRelationV2 => r.identifier.isEmpty
    case _ => false
  }

  /** The target of a write known only by its catalog entry (a stream's `toTable`). A format that
   *  keeps its schema itself (Delta) leaves the entry's empty: the catalog's DSv2 table has it. */
  def ofCatalogTable(t: CatalogTable): ColumnSource =
    if (t.schema.nonEmpty) table(t, DataTypeUtils.toAttributes(t.schema))
    else SessionCatalogTables.relation(
      SparkSession.active,
      t.identifier.database.toSeq,
      t.identifier.table).map(r => dsv2Table(r.table, r.output))
      .getOrElse(table(t, Nil))

  /** The target of a write known only as a DSv2 table (a stream's `toTable` into Iceberg). */
  def ofTable(t: Table): ColumnSource =
    dsv2Table(t, DataSourceV2Relation.create(t, None, None).output)

  /** The relation under a table reference's aliases (`t AS target`, the catalog's own alias). */
  def underAliases(plan: LogicalPlan): LogicalPlan = plan match {
    case SubqueryAlias(_, child) => underAliases(child)
    case other => other
  }

  private def view(v: View): ColumnSource =
    ColumnSource(
      "VIEW",
      Some(v.desc.identifier.unquotedString),
      v.output,
      v.desc.properties.get(HiddenColumnTags.PropertyKey))

  private def dsv2Table(t: Table, output: Seq[Attribute]): ColumnSource =
    ColumnSource(
      "TABLE",
      Some(t.name()),
      output,
      Option(t.properties()).flatMap(p => Option(p.get(HiddenColumnTags.PropertyKey))))

  /** A stream through a DSv1 source: of a catalog table (`readStream.table`), or of a folder a
   *  format keeps as a table (`readStream.format("delta").load(path)`). */
  private def stream(source: DataSource, output: Seq[Attribute]): ColumnSource =
    source.catalogTable.map(table(_, output)).getOrElse {
      val paths = source.options.get("path").toSeq ++ source.paths
      paths.distinct match {
        case Seq(path) if !isSparkFileFormatName(source.className) =>
          atPath(new Path(path), output)
        case _ => ColumnSource("DATAFRAME", None, output, None)
      }
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
  private def tableAtPath(r: LogicalRelation): ColumnSource =
    r.relation match {
      case fs: HadoopFsRelation
          if !isSparkFileFormat(fs.fileFormat) && fs.location.rootPaths.size == 1 =>
        atPath(fs.location.rootPaths.head, r.output)
      case _ => ColumnSource("DATAFRAME", None, r.output, None)
    }

  private def atPath(root: Path, output: Seq[Attribute]): ColumnSource = {
    val session = SparkSession.active
    SessionCatalogTables.pathIdentifier(session, root).map {
      case (namespace, path) =>
        ColumnSource(
          "TABLE",
          Some(s"${namespace.mkString(".")}.`$path`"),
          output,
          SessionCatalogTables.property(session, namespace, path, HiddenColumnTags.PropertyKey))
    }.getOrElse(ColumnSource("DATAFRAME", None, output, None))
  }

  /** Spark's file formats (parquet, orc, csv, ...): their folders are never a format's table. */
  private def isSparkFileFormat(format: FileFormat): Boolean =
    format.getClass.getName.startsWith("org.apache.spark.sql.execution.datasources.")

  /** The same for a stream's source, named by its short name or class. */
  private def isSparkFileFormatName(className: String): Boolean =
    CatalogKeepsProperties.contains(className.toLowerCase(Locale.ROOT)) ||
      className.startsWith("org.apache.spark.sql.execution.datasources.")

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
