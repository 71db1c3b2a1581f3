package org.apache.spark.sql.connect.colsem

import java.lang.reflect.{Field, Method}
import java.util.concurrent.{ConcurrentHashMap, ConcurrentMap}

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.connect.service.{SessionHolder, SparkConnectService}
import org.apache.spark.sql.pipelines.graph.{GraphRegistrationContext, Table}

/**
 * The tables the running Declarative Pipeline declares (`@dp.materialized_view(table_properties=
 * ...)`, `CREATE MATERIALIZED VIEW ... TBLPROPERTIES`). While a pipeline resolves its graph, a
 * flow reading another dataset of the pipeline reads an empty stand-in built from that dataset's
 * inferred schema, not the catalog table (which may not exist yet); the declared properties are
 * only in the graph. Spark 4.1 and later (the first lines with pipelines); the server's session
 * store is private, hence reflection, in this package for the `private[connect]` accessors.
 *
 * Only the graphs of the Spark Connect session resolving the flow are read: the pipeline analyses
 * its flows in its own session, so another client's pipeline on the same server never answers.
 * Every way the lookup can fail is logged once, with what colsem then does; graphs of that session
 * that declare different values are logged too, and hide nothing by the property.
 * A test per line (tests/test_pipelines.py) fails when these internals move.
 */
object PipelineDatasets extends Logging {

  /** The messages already logged: each failure once per driver. */
  private val reported = ConcurrentHashMap.newKeySet[String]()

  /** The value of `key` that the running pipeline's declarations of table `nameParts` agree on. */
  def declaredProperty(nameParts: Seq[String], key: String, resolver: Resolver): Option[String] =
    try {
      val values = runningGraphs.flatMap(tables).filter { table =>
        val id = table.identifier
        val parts = id.catalog.toSeq ++ id.database.toSeq :+ id.table
        parts.size >= nameParts.size &&
        parts.takeRight(nameParts.size).zip(nameParts).forall { case (a, b) => resolver(a, b) }
      }.map(_.properties.get(key)).distinct
      if (values.size > 1) {
        report(
          s"the pipeline graphs of this session declare different $key for " +
            s"${nameParts.mkString(".")} (${values.map(_.getOrElse("none")).mkString(", ")}): " +
            "while the flows resolve, colsem hides none of its columns by the property")
      }
      if (values.size == 1) values.head else None
    } catch {
      case e: NoClassDefFoundError =>
        report(
          s"this driver has no Spark Connect server classes ($e), so no pipeline runs here: " +
            "colsem reads a dataset's stand-in as a plain DataFrame")
        None
      case e @ (_: LinkageError | NonFatal(_)) =>
        report(
          "colsem cannot read the table properties of this driver's Declarative Pipelines " +
            s"($e): a dataset's colsem.hidden_columns is not seen while a pipeline resolves " +
            "its graph")
        None
    }

  private def report(message: String): Unit =
    if (reported.add(message)) logWarning(message)

  /** The dataflow graphs of the server session the active Spark session belongs to. */
  private def runningGraphs: Seq[GraphRegistrationContext] = {
    val active = SparkSession.getActiveSession
    val holders = sessionHolders.filter(h => active.exists(_ eq h.session))
    if (holders.isEmpty && sessionHolders.nonEmpty && active.isDefined) {
      report(
        "the session resolving a pipeline's flow is none of this Spark Connect server's " +
          "sessions: colsem reads no pipeline's declarations for it")
    }
    holders.flatMap(_.dataflowGraphRegistry.getAllDataflowGraphs)
  }

  /** `GraphRegistrationContext.tables`: `protected` in Scala, public in the bytecode. */
  private lazy val tablesMethod: Method = classOf[GraphRegistrationContext].getMethod("tables")

  private def tables(graph: GraphRegistrationContext): Seq[Table] =
    tablesMethod.invoke(graph).asInstanceOf[Iterable[Table]].toSeq

  /** The session manager's private store of sessions. */
  private lazy val sessionStoreField: Field = {
    val field = SparkConnectService.sessionManager.getClass.getDeclaredField("sessionStore")
    field.setAccessible(true)
    field
  }

  /** The server's sessions; none when this JVM runs no Spark Connect server (pipelines run on
   *  one: `spark-pipelines run` starts it). */
  private def sessionHolders: Seq[SessionHolder] =
    if (!SparkConnectService.started) Nil
    else {
      sessionStoreField.get(SparkConnectService.sessionManager)
        .asInstanceOf[ConcurrentMap[_, SessionHolder]].values.asScala.toSeq
    }
}
