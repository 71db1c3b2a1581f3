package io.colsem.lca

import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.internal.SQLConf
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.vocabulary.LateralAliasCandidate

class MarkLateralAliasCandidatesSuite extends AnyFunSuite {

  private def marked(sql: String, pairs: (String, String)*): Seq[String] = {
    val plan: LogicalPlan = CatalystSqlParser.parsePlan(sql)
    SQLConf.withExistingConf(confWith(pairs: _*)) {
      MarkLateralAliasCandidates(plan).flatMap(_.expressions).flatMap(_.collect {
        case c: LateralAliasCandidate => c.nameParts.mkString(".")
      })
    }
  }

  private def confWith(pairs: (String, String)*): SQLConf = {
    val conf = new SQLConf
    pairs.foreach { case (k, v) => conf.setConfString(k, v) }
    conf
  }

  test("names matching an earlier alias are candidates; later and own aliases are not") {
    assert(marked("SELECT a AS x, x + 1 AS y, y * z AS z, w AS q, q2 FROM t") === Seq("x", "y"))
    assert(marked("SELECT x + 1 AS x FROM t") === Seq())
  }

  test("the first part of a qualified name decides; a bare name as an item is kept named") {
    assert(marked("SELECT named_struct('a', 1) AS st, st.a, t.st FROM t") === Seq("st.a"))
  }

  test("subqueries never see the outer list's aliases; lambda parameters shadow them") {
    assert(marked("SELECT a AS x, (SELECT max(x) FROM u) AS m FROM t") === Seq())
    assert(
      marked("SELECT a AS x, transform(arr, x -> x + 1), transform(arr, v -> v + x) FROM t") ===
        Seq("x"))
  }

  test("aggregate lists are marked too; case follows the session") {
    assert(marked("SELECT k AS x, sum(X) FROM t GROUP BY k") === Seq("X"))
    assert(marked(
      "SELECT k AS x, sum(X) FROM t GROUP BY k",
      SQLConf.CASE_SENSITIVE.key -> "true") ===
      Seq())
  }

  test("nothing is marked when the feature is off") {
    assert(marked(
      "SELECT a AS x, x + 1 FROM t",
      "spark.colsem.lateralAlias.enabled" -> "false") === Seq())
    assert(marked("SELECT a AS x, x + 1 FROM t", "spark.colsem.enabled" -> "false") === Seq())
  }

  test("a candidate keeps the original attribute, with its position, for errors") {
    val plan = CatalystSqlParser.parsePlan("SELECT a AS x, x + 1 FROM t")
    val candidate = MarkLateralAliasCandidates(plan).expressions.flatMap(_.collect {
      case c: LateralAliasCandidate => c
    }).head
    assert(candidate.attribute === UnresolvedAttribute("x"))
    assert(candidate.attribute.origin.startPosition === Some(15))
  }
}
