package io.colsem.invariants

import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias
import org.scalatest.funsuite.AnyFunSuite

/** The parts of Spark's plans the invariant checks recognise by name: fails on the line whose
 *  Spark changes them. */
class SparkInternalsSuite extends AnyFunSuite {

  test("Spark's parser names an unaliased subquery with the name invariant 2 leaves alone") {
    val aliases = CatalystSqlParser.parsePlan("SELECT * FROM (SELECT 1 AS a), (SELECT 2 AS a) AS s")
      .collect { case s: SubqueryAlias => s.alias }
    assert(aliases.size === 2)
    assert(aliases.count(DuplicateQualifiedFields.isGeneratedSubqueryName) === 1)
    assert(!DuplicateQualifiedFields.isGeneratedSubqueryName("s"))
  }

  test("a correlated reference is written outer(...), and only that span is left out") {
    assert(QualifierLeak.withoutOuterReferences("(outer(spark_catalog.default.t1.c1) + c1)") ===
      "(outer() + c1)")
    assert(QualifierLeak.withoutOuterReferences("outer(x.xm)[1] - t.y") === "outer()[1] - t.y")
    assert(QualifierLeak.withoutOuterReferences("router(t.y)") === "router(t.y)")
  }
}
