package io.colsem.invariants

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

class SchemasSuite extends AnyFunSuite {

  private def f(name: String, t: DataType, nullable: Boolean = true) =
    PhysicalField(name, t, nullable)

  private val before = Seq(f("id", LongType, nullable = false), f("name", StringType))

  test("the same schema, or one with tighter nullability, is kept exactly") {
    assert(Schemas.exactProblem(before, before) === None)
    assert(Schemas.exactProblem(
      before,
      Seq(f("id", LongType, nullable = false), f("name", StringType, nullable = false))) === None)
  }

  test("widened nullability is a change, at the top level and nested") {
    assert(Schemas.exactProblem(before, Seq(f("id", LongType), f("name", StringType))) ===
      Some("`id` became nullable (it was NOT NULL)"))
    val strict = Seq(f("tags", ArrayType(StringType, containsNull = false)))
    assert(Schemas.exactProblem(
      strict,
      Seq(f("tags", ArrayType(StringType, containsNull = true)))) ===
      Some("`tags` became nullable inside its type (ARRAY<STRING> to ARRAY<STRING>)"))
    assert(Schemas.exactProblem(
      Seq(f("tags", ArrayType(StringType, containsNull = true))),
      strict) === None)
    val strictStruct = StructType(Seq(StructField("a", IntegerType, nullable = false)))
    val looseStruct = StructType(Seq(StructField("a", IntegerType, nullable = true)))
    assert(Schemas.tightens(strictStruct, looseStruct) === false)
    assert(Schemas.tightens(looseStruct, strictStruct) === true)
  }

  test("dropped, added, renamed and retyped fields are named") {
    assert(Schemas.exactProblem(before, before.take(1)) === Some("`name` was dropped"))
    assert(Schemas.exactProblem(before.take(1), before) === Some("`name` was added"))
    assert(Schemas.exactProblem(before, Seq(before.head, f("label", StringType))) ===
      Some("`name` was renamed to `label`"))
    assert(Schemas.exactProblem(before, Seq(before.head, f("name", IntegerType))) ===
      Some("`name` changed type from STRING to INT"))
  }

  test("a reordering breaks the exact schema, not the set") {
    assert(Schemas.exactProblem(before, before.reverse) ===
      Some("the fields were reordered from (`id`, `name`) to (`name`, `id`)"))
    assert(Schemas.setProblem(before, before.reverse) === None)
  }

  test("a repeated bare name is matched field by field") {
    val twice = Seq(f("id", LongType), f("id", StringType))
    assert(Schemas.setProblem(twice, twice.reverse) === None)
    assert(Schemas.setProblem(twice, Seq(f("id", LongType), f("id", LongType))) ===
      Some("`id` changed type from STRING to BIGINT"))
  }

  test("the diff shows both schemas in SQL") {
    assert(Schemas.diff("analyzed", before, "optimized", before.take(1)) ===
      "analyzed (`id` BIGINT NOT NULL, `name` STRING); optimized (`id` BIGINT NOT NULL)")
  }

  test("a name that only changes case is kept under case-insensitive analysis") {
    val renamed = Seq(f("ID", LongType, nullable = false), f("name", StringType))
    assert(Schemas.exactProblem(before, renamed) === Some("`id` was renamed to `ID`"))
    assert(Schemas.exactProblem(before, renamed, caseSensitive = false) === None)
  }

  test(
    "loosenedBy makes nullable the fields, top-level and nested, the other schema has nullable") {
    val strict = Seq(
      f("id", LongType, nullable = false),
      f("tags", ArrayType(StringType, containsNull = false), nullable = false))
    val loose = Seq(f("id", LongType), f("tags", ArrayType(StringType, containsNull = true)))
    assert(Schemas.loosenedBy(strict, loose) === loose)
    assert(Schemas.loosenedBy(loose, strict) === loose)
    assert(Schemas.exactProblem(Schemas.loosenedBy(strict, loose), loose) === None)
    // Fields that do not line up are left as they are.
    assert(Schemas.loosenedBy(strict, loose.reverse) === strict)
    assert(Schemas.loosenedBy(strict, loose.take(1)) === strict)
  }
}
