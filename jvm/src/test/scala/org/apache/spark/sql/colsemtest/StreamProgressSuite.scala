// In a package under org.apache.spark to wait for the listener bus (private[spark]).
package org.apache.spark.sql.colsemtest

import java.io.File
import java.util.concurrent.{ConcurrentHashMap, CopyOnWriteArrayList}
import java.util.concurrent.atomic.AtomicLong

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.catalog.{SupportsWrite, Table, TableCapability, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.metric.{CustomMetric, CustomSumMetric, CustomTaskMetric}
import org.apache.spark.sql.connector.read.streaming.ReportsSinkMetrics
import org.apache.spark.sql.connector.write.{DataWriter, LogicalWriteInfo, PhysicalWriteInfo}
import org.apache.spark.sql.connector.write.{Write, WriteBuilder, WriterCommitMessage}
import org.apache.spark.sql.connector.write.streaming.{StreamingDataWriterFactory, StreamingWrite}
import org.apache.spark.sql.streaming.{StreamingQueryListener, StreamingQueryProgress}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.scalatest.funsuite.AnyFunSuite

/**
 * What Spark reports of a stream into a sink shaped like Kafka's (a DSv2 table that supports
 * streaming writes, is neither the memory nor the noop sink, reports custom task metrics and
 * sink metrics: [[CountingSink]], this suite's own) stays vanilla's under every
 * `spark.colsem.invariants` setting: `recentProgress` (rows in, `sink.numOutputRows`,
 * `sink.metrics`, durations' keys), the progress events a StreamingQueryListener gets, and the
 * micro-batch's counting metrics as the SQL tab shows them, custom ones included. A real Kafka
 * sink needs a broker; Spark reads a DSv2 sink's progress the same way for both (from the
 * micro-batch's root `WriteToDataSourceV2Exec`). tests/stream_progress.py holds the same for the
 * other sinks, classic and Spark Connect.
 */
class StreamProgressSuite extends AnyFunSuite with EverySetting {

  /** What a dashboard reads of a micro-batch. */
  private def reported(p: StreamingQueryProgress) = (
    p.batchId,
    p.numInputRows,
    p.sink.numOutputRows,
    new java.util.TreeMap[String, String](p.sink.metrics).toString,
    p.durationMs.keySet.toArray.map(_.toString).sorted.toSeq)

  private case class Run(
      progress: Seq[Any],
      events: Seq[Any],
      written: Long,
      sqlMetrics: Seq[Seq[(String, String)]])

  /** The stream of a 3-row parquet folder into a CountingSink, under one setting. */
  private def run(source: String, setting: String): Run = {
    val s = session(setting)
    val events = new CopyOnWriteArrayList[Any]()
    val listener = new StreamingQueryListener {
      override def onQueryStarted(event: StreamingQueryListener.QueryStartedEvent): Unit = ()
      override def onQueryProgress(event: StreamingQueryListener.QueryProgressEvent): Unit =
        events.add(reported(event.progress))
      override def onQueryTerminated(event: StreamingQueryListener.QueryTerminatedEvent): Unit =
        ()
    }
    s.streams.addListener(listener)
    val store = spark.sharedState.statusStore
    val before = store.executionsList().map(_.executionId).toSet
    val sink = s"sink_$setting"
    val query = s.readStream.schema("k BIGINT, v BIGINT").parquet(source)
      .selectExpr("k", "v + 1 AS w")
      .writeStream
      .format(classOf[CountingSinkProvider].getName)
      .option("name", sink)
      .option("checkpointLocation", new File(dir, s"ck-$setting").toString)
      .start()
    try query.processAllAvailable()
    finally query.stop()
    spark.sparkContext.listenerBus.waitUntilEmpty()
    s.streams.removeListener(listener)
    // Each micro-batch's counting metrics ("sum" and the sink's custom ones), by shown name.
    val sqlMetrics = store.executionsList().filterNot(e => before(e.executionId)).map { e =>
      val values = store.executionMetrics(e.executionId)
      e.metrics
        .filter(m => m.metricType == "sum" || m.metricType.startsWith("v2Custom"))
        .map(m => m.name -> values.getOrElse(m.accumulatorId, ""))
        .sorted
        .toList
    }.toList
    Run(
      query.recentProgress.toSeq.map(reported),
      events.toArray.toSeq,
      CountingSink.committed(sink),
      sqlMetrics)
  }

  test("a Kafka-shaped DSv2 sink's progress and metrics are vanilla's under every setting") {
    val source = new File(dir, "source").toString
    spark.range(3).selectExpr("id AS k", "id * 10 AS v").coalesce(1).write.parquet(source)
    val vanilla = run(source, "vanilla")
    assert(vanilla.written === 3L)
    val (batchId, rowsIn, rowsOut, sinkMetrics, _) = vanilla.progress.head
    assert((batchId, rowsIn, rowsOut, sinkMetrics) === ((0L, 3L, 3L, "{rowsCommitted=3}")))
    assert(vanilla.events === vanilla.progress)
    assert(vanilla.sqlMetrics.exists(_.contains("rows sent" -> "3")), vanilla.sqlMetrics)
    for ((setting, _) <- settings.tail) {
      assert(run(source, setting) === vanilla, setting)
    }
  }
}

/** Rows each CountingSink (by its `name` option) committed, across micro-batches. */
object CountingSink {
  private val rows = new ConcurrentHashMap[String, AtomicLong]()
  def counter(name: String): AtomicLong = rows.computeIfAbsent(name, _ => new AtomicLong)
  def committed(name: String): Long = counter(name).get
}

/** A streaming DSv2 sink, as Kafka's is: `format(classOf[CountingSinkProvider].getName)`. */
class CountingSinkProvider extends TableProvider {
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = new StructType()
  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: java.util.Map[String, String]): Table =
    new CountingSinkTable(properties.get("name"))
}

class CountingSinkTable(sinkName: String) extends Table with SupportsWrite with ReportsSinkMetrics {
  override def name(): String = s"CountingSink($sinkName)"
  override def schema(): StructType = new StructType()
  override def capabilities(): java.util.Set[TableCapability] =
    java.util.EnumSet.of(TableCapability.STREAMING_WRITE)
  override def metrics(): java.util.Map[String, String] =
    java.util.Collections.singletonMap("rowsCommitted", CountingSink.committed(sinkName).toString)

  override def newWriteBuilder(info: LogicalWriteInfo): WriteBuilder = new WriteBuilder {
    override def build(): Write = new Write {
      override def supportedCustomMetrics(): Array[CustomMetric] = Array(new RowsSentMetric)
      override def toStreaming(): StreamingWrite = new CountingStreamingWrite(sinkName)
    }
  }
}

class RowsSentMetric extends CustomSumMetric {
  override def name(): String = "rowsSent"
  override def description(): String = "rows sent"
}

case class RowsWritten(rows: Long) extends WriterCommitMessage

class CountingStreamingWrite(sinkName: String) extends StreamingWrite {
  override def createStreamingWriterFactory(info: PhysicalWriteInfo): StreamingDataWriterFactory =
    new CountingWriterFactory
  override def commit(epochId: Long, messages: Array[WriterCommitMessage]): Unit =
    messages.foreach { case RowsWritten(n) => CountingSink.counter(sinkName).addAndGet(n) }
  override def abort(epochId: Long, messages: Array[WriterCommitMessage]): Unit = ()
}

class CountingWriterFactory extends StreamingDataWriterFactory {
  override def createWriter(
      partitionId: Int,
      taskId: Long,
      epochId: Long): DataWriter[InternalRow] = new DataWriter[InternalRow] {
    private var rows = 0L
    override def write(row: InternalRow): Unit = rows += 1
    override def commit(): WriterCommitMessage = RowsWritten(rows)
    override def abort(): Unit = ()
    override def close(): Unit = ()
    override def currentMetricsValues(): Array[CustomTaskMetric] = Array(new CustomTaskMetric {
      override def name(): String = "rowsSent"
      override def value(): Long = rows
    })
  }
}
