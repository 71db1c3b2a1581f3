package io.colsem.naming

import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.catalyst.plans.logical.Project
import org.scalatest.funsuite.AnyFunSuite

/** Names computed from parsed (unresolved) SELECT items, no session needed. */
class NamingSuite extends AnyFunSuite {

  private def item(sql: String): Expression =
    CatalystSqlParser.parsePlan(s"SELECT $sql FROM t") match {
      case Project(Seq(UnresolvedAlias(child, _)), _) => child
      case other => fail(s"not one unaliased item: $other")
    }

  private def names(sql: String): Seq[String] = {
    val e = item(sql)
    Seq(
      CanonicalNames.name(e),
      PostgresNames.name(e),
      VerbatimNames.mysql(e),
      VerbatimNames.sqlite(e))
  }

  test("the issue's examples") {
    assert(names("AVG(c1)") === Seq("avg(c1)", "avg", "AVG(c1)", "AVG(c1)"))
    assert(names("'foo'") === Seq("foo", "?column?", "foo", "'foo'"))
    assert(names("-2") === Seq("(- 2)", "?column?", "-2", "-2"))
    assert(names("1+2") === Seq("(1 + 2)", "?column?", "1+2", "1+2"))
    assert(names("id <> 1") === Seq("(id <> 1)", "?column?", "id <> 1", "id <> 1"))
    assert(names("f(c1,c2)") === Seq("f(c1, c2)", "f", "f(c1,c2)", "f(c1,c2)"))
    assert(names("count(*)") === Seq("count(*)", "count", "count(*)", "count(*)"))
    assert(names("t1.id + 1") === Seq("(id + 1)", "?column?", "t1.id + 1", "t1.id + 1"))
  }

  test("casts, CASE, subqueries, lambdas, windows") {
    assert(names("CAST(id AS BIGINT)") === Seq(
      "CAST(id AS BIGINT)",
      "id",
      "CAST(id AS BIGINT)",
      "CAST(id AS BIGINT)"))
    assert(names("CAST(1 + id AS decimal(5, 2))").take(2) === Seq(
      "CAST((1 + id) AS DECIMAL(5,2))",
      "numeric"))
    // The `::` cast syntax came in Spark 4.0.
    if (!org.apache.spark.SPARK_VERSION.startsWith("3.")) {
      assert(names("'1'::int").take(2) === Seq("CAST(1 AS INT)", "int4"))
    }
    assert(names("CASE x WHEN 1 THEN 'a' ELSE y END").take(2) === Seq(
      "CASE x WHEN 1 THEN a ELSE y END",
      "y"))
    assert(names("(SELECT max(a) FROM u)").take(2) === Seq("(SELECT max(a) FROM u)", "max"))
    assert(names("transform(xs, x -> x + 1)").take(2) === Seq(
      "transform(xs, x -> (x + 1))",
      "transform"))
    assert(names("rank() OVER (PARTITION BY a ORDER BY b DESC NULLS FIRST)").take(2) ===
      Seq("rank() OVER (PARTITION BY a ORDER BY b DESC NULLS FIRST)", "rank"))
  }

  test("the text of an item: parentheses around it, predicates from their operand") {
    assert(VerbatimNames.sqlite(item("(a + 1)")) === "(a + 1)")
    assert(VerbatimNames.sqlite(item("a  BETWEEN 1 AND 2")) === "a  BETWEEN 1 AND 2")
    assert(VerbatimNames.sqlite(item("a IS NULL")) === "a IS NULL")
    assert(VerbatimNames.mysql(item("(a > 1) IS TRUE")) === "(a > 1) IS TRUE")
    assert(VerbatimNames.sqlite(item("((a) + ')') IS NULL")) === "((a) + ')') IS NULL")
    // MariaDB names an item by its bytes, comments and line breaks included; SQLite's span also
    // takes the comments after it.
    assert(
      VerbatimNames.mysql(item("a /* x */ +\r\n-- c\n1 /* after */")) === "a /* x */ +\r\n-- c\n1")
    assert(VerbatimNames.sqlite(
      item("a /* x */ + 1 /* after */ -- end\n")) === "a /* x */ + 1 /* after */ -- end")
  }
}
