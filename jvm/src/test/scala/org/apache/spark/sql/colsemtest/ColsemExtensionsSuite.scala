// In a package under org.apache.spark.sql to count injected rules (SparkSessionExtensions'
// builders are private[sql]).
package org.apache.spark.sql.colsemtest

import org.apache.spark.sql.{AnalysisException, SparkSession, SparkSessionExtensions}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.ColsemExtensions
import io.colsem.guards.VersionGuard
import io.colsem.shims.SparkShims

class ColsemExtensionsSuite extends AnyFunSuite with BeforeAndAfterAll {

  // Both ways in at once: spark.sql.extensions here, and the ServiceLoader entry of the
  // classes on the test classpath.
  private lazy val spark: SparkSession = SparkSession.builder()
    .master("local[1]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.extensions", classOf[ColsemExtensions].getName)
    .getOrCreate()

  override def afterAll(): Unit = {
    spark.stop()
    super.afterAll()
  }

  private def status(session: SparkSession): Map[String, String] =
    session.sql("SELECT key, value FROM colsem_status()").collect()
      .map(r => r.getString(0) -> r.getString(1)).toMap

  test("colsem_status() reports an active colsem and its defaults") {
    val s = status(spark)
    assert(s("active") === "true")
    assert(
      s("built_for_spark") === VersionGuard.majorMinor(org.apache.spark.SPARK_VERSION))
    assert(s("running_spark") === org.apache.spark.SPARK_VERSION)
    assert(s("spark.colsem.enabled") === "true")
    assert(s("spark.colsem.singlePassResolver.policy") === "warn")
    assert(s("single_pass_resolver") === "false")
    assert(s("spark.colsem.invariants") === "off")
  }

  test("applying the extension twice to one extensions object injects once") {
    val extensions = new SparkSessionExtensions
    new ColsemExtensions().apply(extensions)
    new ColsemExtensions().apply(extensions)
    assert(extensions.buildCheckRules(spark).size === 4)
    assert(extensions.buildPlannerStrategies(spark).size === 1)
    val other = new SparkSessionExtensions
    new ColsemExtensions().apply(other)
    assert(other.buildCheckRules(spark).size === 4)
  }

  test("an invalid value fails the next query; SET and RESET still work") {
    val session = spark.newSession()
    session.sql("SET spark.colsem.enabled=maybe")
    val e = intercept[AnalysisException](session.sql("SELECT 1").collect())
    assert(SparkShims.errorClassOf(e) === "COLSEM_INVALID_CONF_VALUE")
    assert(e.getSqlState === "22022")
    assert(e.getMessageParameters.get("confValue") === "maybe")
    session.sql("RESET spark.colsem.enabled")
    assert(session.sql("SELECT 1").collect().head.getInt(0) === 1)
  }

  test("a misspelt key fails with a suggestion") {
    val session = spark.newSession()
    session.conf.set("spark.colsem.enabeld", "false")
    val e = intercept[AnalysisException](session.sql("SELECT 1").collect())
    assert(SparkShims.errorClassOf(e) === "COLSEM_UNKNOWN_CONF")
    assert(e.getSqlState === "42K0I")
    assert(e.getMessage.contains("Did you mean 'spark.colsem.enabled'?"))
  }

  test("colsem_status() takes no arguments") {
    val e = intercept[AnalysisException](spark.sql("SELECT * FROM colsem_status(1)").collect())
    assert(SparkShims.errorClassOf(e) === "COLSEM_STATUS_ARGUMENTS")
    assert(e.getSqlState === "42605")
  }

  test("the single-pass analyzer is reported: error policy fails, warn policy runs") {
    assume(
      !org.apache.spark.SPARK_VERSION.startsWith("3."),
      "Spark 3.5 has no single-pass analyzer")
    // Spark 4.0's single-pass analyzer runs no injected check rule either (docs/versions.md).
    assume(!org.apache.spark.SPARK_VERSION.startsWith("4.0."), "Spark 4.0 runs no check rule there")
    val session = spark.newSession()
    // colsem_status() itself is a table function, which the single-pass analyzer does not
    // support yet (UNSUPPORTED_SINGLE_PASS_ANALYZER_FEATURE), so plain queries are used here.
    session.conf.set("spark.sql.analyzer.singlePassResolver.enabled", "true")
    session.conf.set("spark.colsem.singlePassResolver.policy", "error")
    val e = intercept[AnalysisException](session.sql("SELECT 1 AS one").collect())
    assert(SparkShims.errorClassOf(e) === "COLSEM_SINGLE_PASS_RESOLVER")
    assert(e.getSqlState === "0A000")
    session.conf.set("spark.colsem.enabled", "false")
    assert(session.sql("SELECT 1 AS one").collect().head.getInt(0) === 1)
    session.conf.set("spark.colsem.enabled", "true")
    session.conf.set("spark.colsem.singlePassResolver.policy", "warn")
    assert(session.sql("SELECT 1 AS one").collect().head.getInt(0) === 1)
  }
}
