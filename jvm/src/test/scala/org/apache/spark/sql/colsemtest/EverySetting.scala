package org.apache.spark.sql.colsemtest

import java.io.File
import java.nio.file.Files

import org.apache.spark.sql.SparkSession
import org.scalatest.{BeforeAndAfterAll, Suite}

import io.colsem.ColsemExtensions

/**
 * For a suite that compares what Spark reports under each `spark.colsem.invariants` setting
 * with vanilla (colsem off altogether): one session with colsem, a session per setting from it,
 * and a temporary folder.
 */
trait EverySetting extends BeforeAndAfterAll { self: Suite =>

  protected lazy val spark: SparkSession = SparkSession.builder()
    .master("local[1]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "1")
    .config("spark.sql.extensions", classOf[ColsemExtensions].getName)
    .getOrCreate()

  protected lazy val dir: File = Files.createTempDirectory("colsem-every-setting").toFile

  override def afterAll(): Unit = {
    spark.stop()
    super.afterAll()
  }

  /** Vanilla (colsem off altogether), then each invariants setting. */
  protected val settings: Seq[(String, Map[String, String])] = Seq(
    "vanilla" -> Map("spark.colsem.enabled" -> "false"),
    "off" -> Map.empty[String, String],
    "warn" -> Map("spark.colsem.invariants" -> "warn"),
    "error" -> Map("spark.colsem.invariants" -> "error"))

  /** A new session of `spark` with `setting`'s confs. */
  protected def session(setting: String): SparkSession = {
    val s = spark.newSession()
    settings.toMap.apply(setting).foreach { case (k, v) => s.conf.set(k, v) }
    s
  }
}
