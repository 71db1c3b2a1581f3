package io.colsem.status

import org.apache.spark.sql.catalyst.expressions.AttributeReference
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.StringType
import org.apache.spark.unsafe.types.UTF8String

import io.colsem.errors.ColsemErrors
import io.colsem.guards.VersionGuard
import io.colsem.jar.BuildInfo
import io.colsem.settings.ColsemConf
import io.colsem.shims.SparkShims

/**
 * `SELECT * FROM colsem_status()`: whether colsem is active in this session, what it was built
 * for, and each setting's effective value. A table function rather than a Python helper so that
 * every client sees it, Spark Connect and JDBC included; when colsem is not loaded the function
 * does not exist, which is itself the answer.
 */
object StatusTableFunction {
  val Name = "colsem_status"

  val description: TableFunctions.Description = TableFunctions.describe(
    this,
    Name,
    "() - One row per fact about colsem in this session: key, value.",
    s"SELECT * FROM $Name();") { args =>
    if (args.nonEmpty) {
      throw ColsemErrors.statusArguments(args.size)
    }
    plan(SQLConf.get)
  }

  /** The (key, value) rows, settings shown as the raw value set or the default. */
  def rows(conf: SQLConf): Seq[(String, String)] = {
    val built = BuildInfo.current
    Seq(
      "active" -> "true",
      "version" -> built.colsemVersion,
      "built_for_spark" -> built.sparkLine,
      "built_for_scala" -> built.scalaBinary,
      "running_spark" -> VersionGuard.runningSpark,
      "running_scala" -> VersionGuard.runningScala,
      "single_pass_resolver" -> SparkShims.singlePassResolverEnabled(conf).toString) ++
      ColsemConf.all.map(e => e.key -> conf.getConfString(e.key, e.defaultString))
  }

  private def plan(conf: SQLConf): LogicalPlan = {
    val output = Seq(
      AttributeReference("key", StringType, nullable = false)(),
      AttributeReference("value", StringType, nullable = false)())
    val data = rows(conf).map { case (k, v) =>
      InternalRow(UTF8String.fromString(k), UTF8String.fromString(v))
    }
    LocalRelation(output, data)
  }
}
