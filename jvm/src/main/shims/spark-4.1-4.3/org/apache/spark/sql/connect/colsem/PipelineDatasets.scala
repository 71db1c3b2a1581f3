package org.apache.spark.sql.connect.colsem

import java.util.concurrent.ConcurrentMap
import java.util.concurrent.atomic.AtomicBoolean

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.internal.Logging
import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.connect.service.{SessionHolder, SparkConnectService}
import org.apache.spark.sql.pipelines.graph.{GraphRegistrationContext, Table}

/**
 * The tables the Declarative Pipelines registered on this driver's Spark Connect server declare
 * (`@dp.materialized_view(table_properties=...)`, `CREATE MATERIALIZED VIEW ... TBLPROPERTIES`).
 * While a pipeline resolves its graph, a flow reading another dataset of the pipeline reads an
 * empty stand-in built from that dataset's inferred schema, not the catalog table (which may not
 * exist yet); the declared properties are only in the graph. Spark 4.1 and later (the first lines
 * with pipelines); the server's session store is private, hence reflection, in this package for
 * the `private[connect]` accessors.
 * A test per line (tests/test_pipelines.py) fails when these internals move.
 */
object PipelineDatasets extends Logging {

  private val warned = new AtomicBoolean(false)

  /** The value of `key` that the pipelines' declarations of table `nameParts` agree on. */
  def declaredProperty(nameParts: Seq[String], key: String, resolver: Resolver): Option[String] =
    try {
      val values = sessionHolders.flatMap(_.dataflowGraphRegistry.getAllDataflowGraphs)
        .flatMap(tables).filter { table =>
          val id = table.identifier
          val parts = id.catalog.toSeq ++ id.database.toSeq :+ id.table
          parts.size >= nameParts.size &&
          parts.takeRight(nameParts.size).zip(nameParts).forall { case (a, b) => resolver(a, b) }
        }.map(_.properties.get(key)).distinct
      if (values.size == 1) values.head else None
    } catch {
      // No Spark Connect classes in this JVM: no server, so no pipeline.
      case _: NoClassDefFoundError => None
      // A server whose internals moved: nothing declared that colsem can read; say so once.
      case e @ (_: LinkageError | NonFatal(_)) =>
        if (!warned.getAndSet(true)) {
          logWarning(
            "colsem cannot read the table properties of this driver's Declarative Pipelines " +
              s"($e): a dataset's colsem.hidden_columns is not seen while a pipeline resolves " +
              "its graph.")
        }
        None
    }

  /** A graph's tables: `protected` in Scala, public in the bytecode. */
  private def tables(graph: GraphRegistrationContext): Seq[Table] =
    graph.getClass.getMethod("tables").invoke(graph).asInstanceOf[Iterable[Table]].toSeq

  /** The server's sessions; none when this JVM runs no Spark Connect server (pipelines run on
   *  one: `spark-pipelines run` starts it). */
  private def sessionHolders: Seq[SessionHolder] =
    if (!SparkConnectService.started) Nil
    else {
      val manager = SparkConnectService.sessionManager
      val field = manager.getClass.getDeclaredField("sessionStore")
      field.setAccessible(true)
      field.get(manager).asInstanceOf[ConcurrentMap[_, SessionHolder]].values.asScala.toSeq
    }
}
