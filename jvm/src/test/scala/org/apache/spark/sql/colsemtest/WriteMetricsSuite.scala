// In a package under org.apache.spark to wait for the listener bus (private[spark]).
package org.apache.spark.sql.colsemtest

import java.io.File

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.execution.QueryExecution
import org.apache.spark.sql.util.QueryExecutionListener
import org.scalatest.funsuite.AnyFunSuite

/**
 * What Spark reports of a batch write stays vanilla's under every `spark.colsem.invariants`
 * setting: its executed plan as `QueryExecutionListener`s see it, the root node and that node's
 * row and file counts (the SQL tab reads the same metrics). The row check sits below a write node
 * (`InsertCheckedOutput`); tests/test_streaming.py holds the same for a stream's progress.
 */
class WriteMetricsSuite extends AnyFunSuite with EverySetting {

  private def path(name: String) = new File(dir, name).toString

  /** Each write a QueryExecutionListener sees: the root node and its row and file counts. */
  private def writes(setting: String): Seq[(String, String, Map[String, Long])] = {
    val s = session(setting)
    val seen = ArrayBuffer.empty[(String, String, Map[String, Long])]
    s.sqlContext.listenerManager.register(new QueryExecutionListener {
      override def onSuccess(funcName: String, qe: QueryExecution, durationNs: Long): Unit = {
        val root = qe.executedPlan
        val counts = root.metrics.filter { case (k, _) =>
          Set("numOutputRows", "numFiles", "numParts")(k)
        }
        val write = (funcName, root.nodeName, counts.map { case (k, m) => k -> m.value }.toMap)
        seen.synchronized(seen += write)
      }
      override def onFailure(funcName: String, qe: QueryExecution, exception: Exception): Unit =
        ()
    })
    s.range(5).write.mode("overwrite").parquet(path(s"batch-$setting"))
    val location = new File(path(s"table-$setting"))
    location.mkdirs()
    s.sql(s"CREATE TABLE metrics_$setting (id BIGINT) USING parquet LOCATION '$location'")
    s.sql(s"INSERT INTO metrics_$setting SELECT id FROM range(4)")
    s.range(6).write.format("noop").mode("overwrite").save()
    spark.sparkContext.listenerBus.waitUntilEmpty()
    seen.synchronized(seen.toList)
  }

  test("a batch write's root and its counts are vanilla's under every setting") {
    val vanilla = writes("vanilla")
    assert(vanilla.exists(_._3.get("numOutputRows").contains(5L)))
    assert(vanilla.exists(_._3.get("numOutputRows").contains(4L)))
    for ((setting, _) <- settings.tail) assert(writes(setting) === vanilla, setting)
  }
}
