package io.colsem.star

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.TableIdentifier
import org.apache.spark.sql.catalyst.analysis.{
  Resolver, caseInsensitiveResolution, caseSensitiveResolution
}
import org.apache.spark.sql.catalyst.catalog.{CatalogStorageFormat, CatalogTable, CatalogTableType}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, AttributeReference, Coalesce, EqualTo, ExprId, Literal
}
import org.apache.spark.sql.catalyst.plans.{Inner, FullOuter}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.types.{IntegerType, MetadataBuilder, StructType}
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.settings.StarStrategy
import io.colsem.shims.SparkShims

/** Which columns a star's input hides, on hand-built resolved plans. */
class HiddenColumnsSuite extends AnyFunSuite {

  private val tagged = new MetadataBuilder().putBoolean(HiddenColumnTags.MetadataKey, true).build()
  private def col(name: String, hidden: Boolean = false) =
    AttributeReference(
      name,
      IntegerType,
      metadata = if (hidden) tagged else new MetadataBuilder().build())()

  private val id = col("id")
  private val rowId = col("_row_id")
  private val seq = col("_seq", hidden = true)

  /** A DataFrame leaf whose `_seq` is tagged by metadata. */
  private val frame = LocalRelation(id, rowId, seq)

  private def view(property: String, child: LogicalPlan): View = View(
    CatalogTable(
      TableIdentifier("v", Some("db")),
      CatalogTableType.VIEW,
      CatalogStorageFormat.empty,
      new StructType(),
      properties = Map(HiddenColumnTags.PropertyKey -> property)),
    isTempView = false,
    child)

  private def hidden(
      plan: LogicalPlan,
      exclusion: StarExclusion,
      resolver: Resolver = caseInsensitiveResolution): Set[String] = {
    val ids: Set[ExprId] = HiddenColumns.hiddenIds(plan, exclusion, resolver)
    plan.output.filter(a => ids.contains(a.exprId)).map(_.name).toSet
  }

  private val taggedOnly = StarExclusion(Set(StarStrategy.Tagged), patternText = None)
  private val patternOnly = StarExclusion(Set(StarStrategy.Pattern), patternText = Some("_row.*"))

  test("metadata tags need TAGGED; the pattern needs PATTERN and matches whole names") {
    assert(hidden(frame, taggedOnly) === Set("_seq"))
    assert(hidden(frame, patternOnly) === Set("_row_id"))
    assert(hidden(
      frame,
      StarExclusion(Set(StarStrategy.Pattern), patternText = Some("row"))) === Set())
    assert(hidden(frame, StarExclusion(StarStrategy.all.toSet, patternText = Some("_row.*"))) ===
      Set("_seq", "_row_id"))
  }

  test("the walk passes through aliases, filters and joins of the FROM clause") {
    val other = LocalRelation(col("k"), col("_seq", hidden = true))
    val plan = Filter(
      Literal(true),
      Join(
        SubqueryAlias("a", frame),
        SubqueryAlias("b", other),
        Inner,
        Some(EqualTo(id, id)),
        JoinHint.NONE))
    assert(hidden(plan, taggedOnly) === Set("_seq"))
    assert(HiddenColumns.hiddenIds(plan, taggedOnly, caseInsensitiveResolution).size === 2)
  }

  test("a subquery's or CTE's columns are chosen explicitly and never hidden") {
    val subquery = SubqueryAlias("s", Project(Seq(seq, id), frame))
    assert(hidden(subquery, taggedOnly) === Set())
    assert(
      hidden(Project(Seq(seq, id), frame), taggedOnly) === Set("_seq"),
      "a DataFrame's own top operator keeps its tags")
  }

  test("a USING join's projection is looked through; merged keys are new columns") {
    val right = LocalRelation(col("id"), col("_seq", hidden = true))
    val join = Join(frame, right, FullOuter, None, JoinHint.NONE)
    val merged = Alias(Coalesce(Seq(id, right.output.head)), "id")()
    val using = Project(Seq(merged, rowId, seq, right.output(1)), join)
    assert(hidden(using, taggedOnly) === Set("_seq"))
    assert(HiddenColumns.hiddenIds(using, taggedOnly, caseInsensitiveResolution).size === 2)
  }

  test("a view's property hides its columns, compared as the resolver says") {
    val v = view(" `ID` , _row_id", Project(Seq(id, rowId), frame))
    assert(hidden(v, taggedOnly) === Set("id", "_row_id"))
    val e = intercept[AnalysisException](hidden(v, taggedOnly, caseSensitiveResolution))
    assert(SparkShims.errorClassOf(e) === "COLSEM_UNKNOWN_HIDDEN_COLUMNS")
    assert(e.getMessageParameters.get("validValue") === "_row_id")
  }

  test("listed names: comma-separated, trimmed, back-quotes removed, empties dropped") {
    assert(HiddenColumnTags.listedNames(Some(" a, `b c` ,,d ")) === Seq("a", "b c", "d"))
    assert(HiddenColumnTags.listedNames(None) === Seq())
  }
}
