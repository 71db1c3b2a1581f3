package org.apache.spark.sql.execution.colsem

import scala.util.Try

import org.apache.hadoop.fs.Path

import org.apache.spark.sql.{AnalysisException, SparkSession}
import org.apache.spark.sql.connector.catalog.{Identifier, TableCatalog}
import org.apache.spark.sql.execution.colsem.ClassicSessions.asClassic
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

/**
 * Tables as the session catalog (`spark_catalog`) returns them through the DSv2 API, which is where
 * a format that keeps its own metadata shows it: Delta's catalog answers with the table's
 * properties from the transaction log (its catalog entry has none) and, for a path identifier such
 * as `delta.`/data/events``, with the table at that path. `sessionState` is `private[sql]`, hence
 * this package.
 */
object SessionCatalogTables {

  /** The table `namespace.name` as a relation, or None when the catalog knows no such table. */
  def relation(
      session: SparkSession,
      namespace: Seq[String],
      name: String): Option[DataSourceV2Relation] =
    asClassic(session).sessionState.catalogManager.v2SessionCatalog match {
      case catalog: TableCatalog =>
        val identifier = Identifier.of(namespace.toArray, name)
        try Some(DataSourceV2Relation.create(
            catalog.loadTable(identifier),
            Some(catalog),
            Some(identifier)))
        catch {
          // No such table, or a namespace the catalog does not read as a format's path.
          case _: AnalysisException | _: IllegalArgumentException => None
        }
      case _ => None
    }

  /** One property of the table as the session catalog's DSv2 table has it. */
  def property(
      session: SparkSession,
      namespace: Seq[String],
      name: String,
      key: String): Option[String] =
    relation(session, namespace, name).flatMap(r => Option(r.table.properties().get(key)))

  /** The identifier by which the session catalog reads the table stored in folder `root`, for a
   *  folder holding a Delta transaction log (`_delta_log`): `delta`.`<root>`. */
  def pathIdentifier(session: SparkSession, root: Path): Option[(Seq[String], String)] = {
    val hadoopConf = asClassic(session).sessionState.newHadoopConf()
    val hasDeltaLog =
      Try(root.getFileSystem(hadoopConf).exists(new Path(root, "_delta_log"))).getOrElse(false)
    if (hasDeltaLog) Some((Seq("delta"), root.toString)) else None
  }
}
