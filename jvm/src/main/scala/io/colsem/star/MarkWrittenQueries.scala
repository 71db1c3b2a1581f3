package io.colsem.star

import java.util.concurrent.atomic.AtomicLong

import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, V2WriteCommand}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag

import io.colsem.vocabulary.UserQueries

/**
 * Hints-batch rule (Spark 4; before Resolution) for data safety. A DataFrame write into a DSv2
 * table (`writeTo(t).append()`, `.overwrite(...)`, `.overwritePartitions()`; `saveAsTable` and
 * `insertInto` of a DSv2 format) reaches the analyzer as a write command over the DataFrame's
 * plan. In the pass that resolves it, Spark's output resolution fills every column the query does
 * not provide with its DEFAULT or NULL, before any extension rule sees the command. So the command
 * and its query's root get one write id here, and [[ProtectHiddenColumnsOnWrite]] finds under the
 * filled projection the query the user wrote:
 *
 * {{{
 *   AppendData t, byName        ==>  AppendData t, byName            [write 7]
 *   +- <query>                       +- <query>                      [write 7]
 *
 *   after Resolution:                AppendData t, byName            [write 7]
 *                                    +- Project [id, msg, null AS _ts]
 *                                       +- <query>                   [write 7]  id, msg
 * }}}
 * Golden: none (a DataFrame's write into a DSv2 table; the golden tables are parquet):
 *   tests/test_table_formats.py::test_write_keeps_hidden_values_or_fails_with_the_table_unchanged
 *
 * Tags survive the analyzer's rewrites (rules copy them to the node that replaces one); the id
 * tells this write's query from a DataFrame plan an earlier write marked.
 */
object MarkWrittenQueries extends Rule[LogicalPlan] {

  val WriteId: TreeNodeTag[Long] = TreeNodeTag[Long]("colsem.star.write")

  private val ids = new AtomicLong()

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (UserQueries.changesConf(plan) || StarExclusion.read(conf).isEmpty) plan
    else {
      plan.foreach {
        case write: V2WriteCommand if write.getTagValue(WriteId).isEmpty =>
          val id = ids.incrementAndGet()
          write.setTagValue(WriteId, id)
          write.query.setTagValue(WriteId, id)
        case _ =>
      }
      plan
    }

  /** The query the user wrote under `write`, found by its id; None for a write this rule did not
   *  see (an INSERT statement, checked before Spark turns it into a write command). */
  def writtenQuery(write: V2WriteCommand): Option[LogicalPlan] =
    write.getTagValue(WriteId).flatMap(id => write.query.find(_.getTagValue(WriteId).contains(id)))
}
