package io.colsem.lca

import org.apache.spark.sql.{AnalysisException, SparkSession}
import org.apache.spark.sql.catalyst.analysis.caseInsensitiveResolution
import org.apache.spark.sql.catalyst.expressions.{
  Add, Attribute, AttributeReference, NamedExpression
}
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LocalRelation, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.IntegerType
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.LateralAliasCandidate

/** The lateral-alias rule's parts on parsed SELECT lists over `t (a INT, k INT)`: what each name
 *  means ([[LateralAliasBinding]]) and how the used aliases are computed below the list
 *  ([[AliasMaterialization]], [[ChainFolding]]). */
class LateralAliasRewriteSuite extends AnyFunSuite with BeforeAndAfterAll {

  private lazy val spark: SparkSession = SparkSession.builder()
    .master("local[1]")
    .config("spark.ui.enabled", "false")
    .getOrCreate()

  private val input =
    LocalRelation(AttributeReference("a", IntegerType)(), AttributeReference("k", IntegerType)())

  override def afterAll(): Unit = {
    spark.stop()
    super.afterAll()
  }

  /** The SELECT list of `sql`, its lateral-alias candidates marked, bound over `input`. */
  private def bind(sql: String): LateralAliasBinding = {
    val marked = SQLConf.withExistingConf(new SQLConf)(MarkLateralAliasCandidates(
      CatalystSqlParser.parsePlan(sql)))
    val items = marked.collectFirst { case p: Project => p.projectList }.get
    LateralAliasBinding(spark, caseInsensitiveResolution, items.toIndexedSeq, input)
  }

  /** Each candidate as `item:name -> alias index`, or `-> column`/`-> name` when it is none. */
  private def meanings(b: LateralAliasBinding): Seq[String] = b.items.indices.flatMap { i =>
    b.items(i).collect { case c: LateralAliasCandidate => c }.distinct.map { c =>
      val meant = b.meaning((i, c)) match {
        case Right(j) => s"item $j"
        case Left(_: AttributeReference) => "column"
        case Left(_) => "name"
      }
      s"$i:${c.nameParts.mkString(".")} -> $meant"
    }
  }

  private def materialize(
      b: LateralAliasBinding,
      nativeDepth: Int = 49): (LogicalPlan, Substitution) =
    new AliasMaterialization(spark, caseInsensitiveResolution)
      .materialize(b, input, b.used, ListKind.Projection, nativeDepth, maxDepth = 100).get

  /** The Projects below the list, bottom first, each as the names it adds to its input. */
  private def levels(plan: LogicalPlan): Seq[Seq[String]] = plan match {
    case Project(list, child) => levels(child) :+ list.drop(child.output.size).map(_.name)
    case _ => Nil
  }

  test("an alias, its uses and the dependency levels") {
    val b = bind("SELECT a + 1 AS x, x * 2 AS y, y - x AS z, x + k FROM t")
    assert(meanings(b) === Seq("1:x -> item 0", "2:y -> item 1", "2:x -> item 0", "3:x -> item 0"))
    assert(b.used === Set(0, 1))
    assert(b.closure(Set(2)) === Set(0, 1, 2))
    assert(b.levels(kept = Set(0, 1), folded = Set.empty) === Seq(0, 1, 2, 1))
    assert(b.levels(kept = Set(1), folded = Set(0)) === Seq(0, 0, 1, 0))
  }

  test("the input's column and a parameterless function win over an alias of the same name") {
    assert(meanings(bind("SELECT k + 1 AS a, a * 2 FROM t")) === Seq("1:a -> column"))
    assert(meanings(bind("SELECT 'x' AS current_user, current_user FROM t")) === Seq(
      "1:current_user -> name"))
    assert(meanings(bind("SELECT 1 AS x, x.f FROM t")) === Seq("1:x.f -> item 0"))
  }

  test("two earlier aliases of one name: AMBIGUOUS_LATERAL_COLUMN_ALIAS") {
    val e = intercept[AnalysisException](bind("SELECT a AS x, k AS x, x + 1 FROM t"))
    assert(SparkShims.errorClassOf(e) === "AMBIGUOUS_LATERAL_COLUMN_ALIAS")
  }

  test("inline replaces references by what they name, for GROUP BY") {
    val b = bind("SELECT a + 1 AS x, x * 2 AS y FROM t")
    assert(b.inline(1).sql === "((a + 1) * 2)")
  }

  test("inlineItem is an item's expression, aliased or not, with its references inlined") {
    val b = bind("SELECT a + 1 AS x, x * 2 AS y, x + k FROM t")
    assert(b.inlineItem(1).sql === "((a + 1) * 2)")
    assert(b.inlineItem(2).sql === "((a + 1) + k)")
  }

  /** The GROUP BY of `sql`, an aggregate over `input`, with its references to the list replaced. */
  private def grouping(sql: String): GroupingReferences = {
    val marked = SQLConf.withExistingConf(new SQLConf)(MarkLateralAliasCandidates(
      CatalystSqlParser.parsePlan(sql)))
    val a = marked.collectFirst { case a: Aggregate => a }.get.copy(child = input)
    val b = LateralAliasBinding(
      spark,
      caseInsensitiveResolution,
      a.aggregateExpressions.toIndexedSeq,
      input)
    GroupingReferences(spark, new SQLConf, a, b)
  }

  test("GROUP BY ALL over items that use aliases: the items without aggregates, inlined") {
    val all = grouping("SELECT a AS x, x + 1 AS y, sum(k) AS s, s + 1 AS u FROM t GROUP BY ALL")
    assert(all.expressions.map(_.sql) === Seq("a", "(a + 1)"))
    assert(all.grouped === Set(0, 1))
    val global = grouping("SELECT sum(k) AS s, s + 1 AS u FROM t GROUP BY ALL")
    assert(global.expressions === Nil && global.changed)
    assert(!grouping("SELECT a AS x, sum(k) AS s FROM t GROUP BY ALL").changed)
  }

  test("aliases in ROLLUP: all replaced once one item uses an alias, else left to Spark") {
    val rollup = grouping("SELECT a AS x, x + 1 AS y, count(1) AS c FROM t GROUP BY ROLLUP(x, y)")
    assert(rollup.expressions.flatMap(_.children).map(_.sql) === Seq("a", "(a + 1)"))
    assert(rollup.grouped === Set(0, 1) && rollup.changed)
    assert(
      !grouping("SELECT a AS x, a + 1 AS y, count(1) AS c FROM t GROUP BY ROLLUP(x, y)").changed)
  }

  test("one Project per level, under the aliases' own names, read by attribute") {
    val b = bind("SELECT a + 1 AS x, x * 2 AS y, y - x AS z, x + k FROM t")
    val (below, substitution) = materialize(b)
    assert(levels(below) === Seq(Seq("x"), Seq("y")))
    assert(substitution.names === ComputedNames.Own)
    assert(substitution.computed.keySet === Set(0, 1))
    val top = b.items.indices.map(i =>
      substitution.computed.get(i).map(substitution.output(i, _))
        .getOrElse(substitution.substitute(i, b.items(i)).asInstanceOf[NamedExpression]))
    assert(top(0) === substitution.computed(0))
    assert(top(2).children.head.sql === "(y - x)")
  }

  test("an alias that could capture a name left to Spark is computed under a private name") {
    // `y + 1` names `y` before the alias `y` exists: it is left to Spark (UNRESOLVED_COLUMN), and
    // must not see the computed `y`.
    val b = bind("SELECT y + 1 AS x, k AS y, y * 2 AS z FROM t")
    val (below, substitution) = materialize(b)
    assert(substitution.names === ComputedNames.Private)
    assert(levels(below) === Seq(Seq(ComputedAliases.PrivatePrefix + "y")))
    val y: Attribute = substitution.computed(1)
    assert(substitution.output(1, y).name === "y")
  }

  test("past the native depth, short plain chains are folded into their users") {
    val chain =
      (1 to 20).map(i => if (i == 1) "a AS x1" else s"x${i - 1} + 1 AS x$i").mkString(", ")
    val b = bind(s"SELECT $chain FROM t")
    val (unfolded, _) = materialize(b)
    assert(levels(unfolded).size === 19)
    // at most 8 folded in a row: x9 and x18 are computed, the others folded into their users
    val (folded, substitution) = materialize(b, nativeDepth = 3)
    assert(substitution.folded === (0 to 18).toSet -- Set(8, 17))
    assert(levels(folded) === Seq(Seq("x9"), Seq("x18")))
  }

  test("deeper chains fold longer runs, each folded value resolved once and shared") {
    // 4,000 aliases: twice the depth folded in runs of 8 within ChainFolding.Levels, so runs of 16.
    val chain =
      (1 to 4000).map(i => if (i == 1) "a AS x1" else s"x${i - 1} + 1 AS x$i").mkString(", ")
    val b = bind(s"SELECT $chain FROM t")
    val (below, substitution) = new AliasMaterialization(spark, caseInsensitiveResolution)
      .materialize(b, input, b.used, ListKind.Projection, nativeDepth = 49, maxDepth = 400).get
    assert(levels(below).size === 3999 / 17)
    assert(levels(below).size <= ChainFolding.Levels)
    assert(substitution.folded.size === 3999 - 3999 / 17)
    // x2 (item 1, x1 + 1 with x1 = a) is folded into x17, the first level: resolved once, in
    // that level, which holds that very node (shared, not an equal copy), as x3's value does.
    val x2 = substitution.resolvedFolded(1)
    assert(x2.resolved && x2.isInstanceOf[Add] && x2.references.toSeq.map(_.name) === Seq("a"))
    val x17 = below.collect { case p: Project => p }.last.projectList.last
    assert(x17.find(_ eq x2).isDefined)
    assert(substitution.resolvedFolded(2).find(_ eq x2).isDefined)
    assert(!x17.exists(_.isInstanceOf[FoldedValue]))
  }

  test("a level that does not resolve as a projection is left to Spark") {
    val b = bind("SELECT sum(a) AS s, s + 1 FROM t")
    val materialized = new AliasMaterialization(spark, caseInsensitiveResolution)
      .materialize(b, input, b.used, ListKind.Projection, nativeDepth = 49, maxDepth = 100)
    assert(materialized.isEmpty)
  }
}
