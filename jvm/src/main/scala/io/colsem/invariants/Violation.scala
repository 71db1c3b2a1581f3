package io.colsem.invariants

/** A broken invariant, as the error class and parameters it is reported with. */
final case class Violation(invariant: Int, errorClass: String, parameters: Map[String, String])

object Violation {
  val Statements: Map[Int, String] = Map(
    1 -> "output names never carry a relation qualifier",
    2 -> "within one schema, (relation, name) pairs are unique",
    3 -> "planning keeps the physical schema",
    4 -> "execution keeps the physical schema",
    5 -> "logical optimization keeps the schema",
    6 -> "physical optimization keeps the schema")

  def schemaChanged(invariant: Int, culprit: String, problem: String, diff: String): Violation =
    Violation(
      invariant,
      "COLSEM_SCHEMA_INVARIANT_VIOLATED",
      Map(
        "invariant" -> invariant.toString,
        "statement" -> Statements(invariant),
        "culprit" -> culprit,
        "problem" -> problem,
        "diff" -> diff))

  def duplicateField(node: String, field: String, origins: Seq[String]): Violation =
    Violation(
      2,
      "COLSEM_DUPLICATE_QUALIFIED_FIELD",
      Map(
        "invariant" -> "2",
        "statement" -> Statements(2),
        "node" -> node,
        "field" -> field,
        "origins" -> origins.mkString(" and ")))
}
