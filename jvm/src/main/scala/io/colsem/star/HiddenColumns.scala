package io.colsem.star

import java.util.Locale

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.catalog.{CatalogTable, HiveTableRelation}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Coalesce, ExprId, NamedExpression
}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.catalyst.trees.Origin
import org.apache.spark.sql.execution.datasources.{FileFormat, HadoopFsRelation, LogicalRelation}
import org.apache.spark.sql.execution.colsem.SessionCatalogTables
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

import io.colsem.ColsemErrors

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
    val listed = HiddenColumns.listedNames(hiddenProperty)
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
          StarExclusion.Tagged,
          s"${kind.toLowerCase(Locale.ROOT)} property ${HiddenColumns.PropertyKey}"))
      val byMetadata = HiddenColumns.taggedByMetadata(a).option(
        HidingMarker(StarExclusion.Tagged, s"field metadata ${HiddenColumns.MetadataKey}"))
      val byPattern = pattern.filter(_.matcher(a.name).matches()).map(p =>
        HidingMarker(
          StarExclusion.PatternStrategy,
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
        v.desc.properties.get(HiddenColumns.PropertyKey)))
    case r: LogicalRelation =>
      Some(r.catalogTable.map(table(_, r.output)).getOrElse(tableAtPath(r)))
    case r: HiveTableRelation => Some(table(r.tableMeta, r.output))
    case r: DataSourceV2Relation =>
      Some(ColumnSource(
        "TABLE",
        Some(r.table.name()),
        r.output,
        Option(r.table.properties().get(HiddenColumns.PropertyKey))))
    case _: CTERelationRef => None
    case leaf: LeafNode => Some(ColumnSource("DATAFRAME", None, leaf.output, None))
    case _ => None
  }

  private def table(t: CatalogTable, output: Seq[Attribute]): ColumnSource =
    ColumnSource(
      "TABLE",
      Some(t.identifier.unquotedString),
      output,
      t.properties.get(HiddenColumns.PropertyKey).orElse(formatProperty(t)))

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
              SessionCatalogTables.property(session, namespace, path, HiddenColumns.PropertyKey))
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
          HiddenColumns.PropertyKey)
    }
}

/** A write's target (`tableName`), its hidden `columns` the data written lacks, and the columns of
 *  the target it does provide, in table order. */
final case class HiddenColumnsNotProvided(
    tableName: String,
    columns: Seq[String],
    providedColumns: Seq[String])

/**
 * Which columns of a star's input `*` leaves out. As in Flink, only columns that come straight
 * from a table, view or DataFrame are candidates: the walk passes through the operators of the
 * star's own FROM clause (aliases, joins, filters, ...) and stops at a subquery, whose columns were
 * selected explicitly (`SELECT * FROM (SELECT rt1, * FROM t)` keeps `rt1`).
 */
object HiddenColumns {
  val PropertyKey = "colsem.hidden_columns"
  val MetadataKey = "colsem.hidden"

  /** The relation under a table reference's aliases (`t AS target`, the catalog's own alias). */
  def underAliases(plan: LogicalPlan): LogicalPlan = plan match {
    case SubqueryAlias(_, child) => underAliases(child)
    case other => other
  }

  /** The expression ids of the input's output columns that `*` leaves out. */
  def hiddenIds(
      input: LogicalPlan,
      exclusion: StarExclusion,
      resolver: Resolver,
      origin: Option[Origin] = None): Set[ExprId] = {
    val pattern = exclusion.patternText
    def fromSource(source: ColumnSource): Set[ExprId] =
      source.markers(pattern, resolver, origin).collect {
        case (a, markers) if exclusion.hides(markers) => a.exprId
      }.toSet

    def walk(plan: LogicalPlan): Option[Set[ExprId]] = plan match {
      case SubqueryAlias(_, child) =>
        Some(if (isSource(child)) walk(child).getOrElse(Set.empty) else Set.empty)
      case j: Join => Some(walk(j.left).getOrElse(Set.empty) ++ walk(j.right).getOrElse(Set.empty))
      case j: LateralJoin => Some(walk(j.left).getOrElse(Set.empty))
      case g: Generate => Some(walk(g.child).getOrElse(Set.empty))
      case p @ Project(_, j: Join) if isUsingJoinProjection(p) =>
        Some(walk(j).getOrElse(Set.empty) intersect p.output.map(_.exprId).toSet)
      case u: UnaryNode if keepsColumns(u) => Some(walk(u.child).getOrElse(Set.empty))
      case other => ColumnSource.of(other).map(fromSource)
    }

    walk(input).getOrElse {
      // A DataFrame's own top operator (`df.select("*")` on a projection, aggregate, union...):
      // only columns it tags itself are hidden.
      if (!exclusion.tagged) Set.empty
      else input.output.filter(taggedByMetadata).map(_.exprId).toSet
    }
  }

  /** A star's expansion without the hidden columns. Struct fields of `s.*` are aliases, never
   *  hidden: they are not columns of a table. */
  def withoutHidden(expanded: Seq[NamedExpression], hidden: Set[ExprId]): Seq[NamedExpression] =
    if (hidden.isEmpty) expanded
    else expanded.filterNot {
      case a: Attribute => hidden.contains(a.exprId)
      case _ => false
    }

  /** The hidden columns of a write's target that the data written does not provide, if any. */
  def notProvided(
      target: LogicalPlan,
      provided: Seq[String],
      exclusion: StarExclusion,
      resolver: Resolver): Option[HiddenColumnsNotProvided] =
    ColumnSource.of(target).flatMap { source =>
      val hidden = source.markers(exclusion.patternText, resolver).collect {
        case (column, markers) if exclusion.hides(markers) => column.name
      }
      val unprovided = hidden.filterNot(h => provided.exists(resolver(_, h)))
      if (unprovided.isEmpty) None
      else Some(HiddenColumnsNotProvided(
        source.name.getOrElse("?"),
        unprovided,
        source.output.map(_.name).filter(c => provided.exists(resolver(_, c)))))
    }

  /** Names listed by a `colsem.hidden_columns` value: comma-separated, optionally back-quoted. */
  def listedNames(property: Option[String]): Seq[String] =
    property.toSeq.flatMap(_.split(",")).map(_.trim.stripPrefix("`").stripSuffix("`").trim)
      .filter(_.nonEmpty)

  def taggedByMetadata(a: Attribute): Boolean =
    a.metadata.contains(MetadataKey) &&
      (scala.util.Try(a.metadata.getBoolean(MetadataKey)).getOrElse(false) ||
        scala.util.Try(a.metadata.getString(MetadataKey)).toOption
          .exists(_.trim.equalsIgnoreCase("true")))

  /** A table, view or DataFrame leaf under any number of aliases (`FROM t AS x`), as opposed to a
   *  subquery or CTE. */
  private def isSource(plan: LogicalPlan): Boolean = plan match {
    case SubqueryAlias(_, child) => isSource(child)
    case other => ColumnSource.of(other).isDefined
  }

  /** Operators that pass their child's columns on unchanged. */
  private def keepsColumns(plan: UnaryNode): Boolean = plan match {
    case _: Filter | _: Sort | _: Sample | _: Distinct | _: Deduplicate | _: GlobalLimit |
        _: LocalLimit | _: Offset | _: Tail | _: ResolvedHint | _: Repartition |
        _: RepartitionByExpression => true
    case _ => false
  }

  /** The projection Spark puts over a `JOIN ... USING (...)` or NATURAL JOIN: join keys (merged
   *  with COALESCE for outer joins) then the remaining columns of both sides. */
  private def isUsingJoinProjection(p: Project): Boolean = {
    val joinOutput = p.child.outputSet
    p.projectList.forall {
      case a: Attribute => joinOutput.contains(a)
      case Alias(Coalesce(args), _) => args.forall {
          case a: Attribute => joinOutput.contains(a)
          case _ => false
        }
      case _ => false
    }
  }
}
