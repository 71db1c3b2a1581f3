package io.colsem.respond

import org.apache.spark.sql.{Row, SparkSession}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.ColsemExtensions

class PresenceColumnsSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val spark: SparkSession = SparkSession.builder()
    .master("local[1]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.extensions", classOf[ColsemExtensions].getName)
    .getOrCreate()

  /** Spark 3.5 has no VARIANT: its cases run on Spark 4 only. */
  private val hasVariant = !org.apache.spark.SPARK_VERSION.startsWith("3.")

  /** The `v:age` path syntax came in Spark 4.1; on 4.0 the same lookup is spelt out. */
  private val variantPath =
    if (org.apache.spark.SPARK_VERSION.startsWith("4.0.")) "variant_get(v, '$.age', 'variant')"
    else "v:age"

  override def beforeAll(): Unit = {
    super.beforeAll()
    def variant(json: String) = if (hasVariant) ", parse_json('" + json + "')" else ""
    val columns = if (hasVariant) "id, m, v" else "id, m"
    spark.sql("CREATE OR REPLACE TEMP VIEW docs AS SELECT * FROM VALUES " +
      "(1, map('age', 31)" + variant("{\"age\":31}") + "), " +
      "(2, map('age', CAST(NULL AS INT))" + variant("{\"age\":null}") + "), " +
      "(3, map('x', 0)" + variant("{}") + ") AS t(" + columns + ")")
  }

  override def afterAll(): Unit = {
    spark.stop()
    super.afterAll()
  }

  /** `sql` through `colsem_with_presence`: for each of its columns the ordinal of its present
   *  column (or -1), found by name as colsem.respond finds it, and the rows. */
  private def presence(sql: String): (Seq[Int], Seq[Row]) = {
    val width = spark.sql(sql).columns.length
    val result = spark.sql(s"SELECT * FROM ${PresenceTableFunction.Name}(TABLE($sql))")
    val columns = result.columns.toSeq
    assert(columns.take(width) === spark.sql(sql).columns.toSeq)
    val ordinals = (0 until width).map(i => columns.indexOf(PresenceColumns.ColumnPrefix + i))
    assert(ordinals.count(_ >= 0) === columns.length - width)
    (ordinals, result.collect().toSeq)
  }

  test("a plan without lookups gets no present column") {
    val (ordinals, rows) = presence("SELECT id, id + 1 AS next FROM docs ORDER BY id")
    assert(ordinals === Seq(-1, -1))
    assert(rows === Seq(Row(1, 2), Row(2, 3), Row(3, 4)))
  }

  test("map lookups get a present column: false only for an absent key") {
    val (ordinals, rows) =
      presence("SELECT id, m['age'] AS a, element_at(m, 'age') AS b FROM docs ORDER BY id")
    assert(ordinals === Seq(-1, 3, 4))
    assert(rows === Seq(
      Row(1, 31, 31, true, true),
      Row(2, null, null, true, true),
      Row(3, null, null, false, false)))
  }

  test("map and variant lookups get a present column: false only for an absent key or path") {
    assume(hasVariant, "Spark 3.5 has no VARIANT")
    val (ordinals, rows) = presence(
      "SELECT id, m['age'] AS a, variant_get(v, '$.age', 'int') AS b, " + variantPath + " AS c " +
        "FROM docs ORDER BY id")
    assert(ordinals === Seq(-1, 4, 5, 6))
    assert(rows === Seq(
      Row(1, 31, 31, rows.head.get(3), true, true, true),
      Row(2, null, null, rows(1).get(3), true, true, true),
      Row(3, null, null, null, false, false, false)))
  }

  test("flags follow the value through subqueries, renames, casts, filters and sorts") {
    val (ordinals, rows) = presence(
      "SELECT CAST(x AS STRING) AS s FROM (SELECT id, m['age'] AS x FROM docs) q " +
        "WHERE id > 1 ORDER BY id")
    assert(ordinals === Seq(1))
    assert(rows === Seq(Row(null, true), Row(null, false)))
  }

  test("values past an aggregate or DISTINCT have no present column") {
    assert(presence("SELECT max(m['age']) AS a FROM docs")._1 === Seq(-1))
    assert(presence("SELECT DISTINCT m['age'] AS a FROM docs")._1 === Seq(-1))
  }

  test("UNION ALL children get flags by position, TRUE where a child is not a lookup") {
    val (ordinals, rows) = presence(
      "SELECT * FROM (SELECT id, m['age'] AS a FROM docs UNION ALL SELECT 9, CAST(NULL AS INT)) " +
        "ORDER BY id")
    assert(ordinals === Seq(-1, 2))
    assert(rows.map(r => (r.getInt(0), r.getBoolean(2))) === Seq(
      (1, true),
      (2, true),
      (3, false),
      (9, true)))
  }

  test("a view or table as the argument; a CTE inside the query") {
    spark.sql("CREATE OR REPLACE TEMP VIEW ages AS SELECT id, m['age'] AS a FROM docs")
    val rows = spark.sql(s"SELECT * FROM ${PresenceTableFunction.Name}(TABLE(ages))").collect()
    assert(rows.map(r => (r.getInt(0), r.getBoolean(2))).sorted.toSeq === Seq(
      (1, true),
      (2, true),
      (3, false)))
    val (ordinals, cte) =
      presence("WITH q AS (SELECT id, m['age'] AS a FROM docs) SELECT a FROM q ORDER BY id")
    assert(ordinals === Seq(1))
    assert(cte === Seq(Row(31, true), Row(null, true), Row(null, false)))
  }

  test("* over the function keeps every column under the session's star strategies") {
    spark.conf.set("spark.colsem.star.exclude", "PATTERN")
    spark.conf.set("spark.colsem.star.excludePattern", "id|__colsem_.*")
    try {
      assert(spark.sql("SELECT * FROM docs").columns.toSeq === (if (hasVariant) Seq("m", "v")
                                                                else Seq("m")))
      assert(presence("SELECT id FROM docs ORDER BY id") === ((
        Seq(-1),
        Seq(Row(1), Row(2), Row(3)))))
      assert(presence("SELECT id, m['age'] AS a FROM docs ORDER BY id")._1 === Seq(-1, 2))
    } finally {
      spark.conf.unset("spark.colsem.star.exclude")
      spark.conf.unset("spark.colsem.star.excludePattern")
    }
  }

  test("anything but one plain table argument is COLSEM_WITH_PRESENCE_ARGUMENTS") {
    // Spark 3.5 parses no PARTITION BY after a TABLE argument.
    val partitioned = if (hasVariant) Seq("TABLE(docs) PARTITION BY id") else Nil
    for (args <- Seq("", "'docs'", "TABLE(docs), TABLE(docs)") ++ partitioned) {
      val e = intercept[org.apache.spark.sql.AnalysisException] {
        spark.sql(s"SELECT * FROM ${PresenceTableFunction.Name}($args)").collect()
      }
      assert(e.getSqlState === "42605", e.getMessage)
      assert(
        e.getMessage.startsWith(
          "[COLSEM_WITH_PRESENCE_ARGUMENTS] colsem_with_presence() takes one argument"),
        e.getMessage)
    }
  }

  test("presenceOf: the lookups it recognizes") {
    def flagged(sql: String): Boolean =
      PresenceColumns.presenceOf(spark.sql(sql).queryExecution.analyzed.expressions.head).isDefined
    assert(flagged("SELECT element_at(m, 'age') FROM docs"))
    assert(flagged("SELECT try_element_at(m, 'age') FROM docs"))
    if (hasVariant) assert(flagged("SELECT try_variant_get(v, '$.age', 'int') FROM docs"))
    assert(!flagged("SELECT element_at(array(1), 1) FROM docs"))
    assert(!flagged("SELECT coalesce(m['age'], 0) FROM docs"))
  }
}
