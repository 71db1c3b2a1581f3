package io.colsem.invariants

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.util.QuotingUtils
import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StructType}

/** A physical field: a logical field (relation, name, type, nullable) without its relation. */
final case class PhysicalField(name: String, dataType: DataType, nullable: Boolean) {
  def sql: String =
    s"${QuotingUtils.quoteIdentifier(name)} ${dataType.sql}${if (nullable) "" else " NOT NULL"}"
}

/**
 * Comparisons between two physical schemas, for the invariants that say a stage keeps its input's
 * schema: exactly (same fields in the same order) or as a set (reordered, never changed). "Keeps"
 * allows nullability to tighten, at the top level and inside arrays, maps and structs, and never to
 * widen: a stage may learn that a column has no NULLs, but must not start producing them.
 */
object Schemas {

  def physical(output: Seq[Attribute]): Seq[PhysicalField] =
    output.map(a => PhysicalField(a.name, a.dataType, a.nullable))

  /** `after` can stand where `before` stood. Under case-insensitive analysis a name may change case
   *  (Spark's planning names a grouping column as GROUP BY wrote it): both resolve alike. */
  def keeps(before: PhysicalField, after: PhysicalField, caseSensitive: Boolean = true): Boolean =
    (if (caseSensitive) before.name == after.name else before.name.equalsIgnoreCase(after.name)) &&
      (before.nullable || !after.nullable) && tightens(before.dataType, after.dataType)

  /** Same type, nested nullability equal or tighter. */
  def tightens(before: DataType, after: DataType): Boolean = (before, after) match {
    case (ArrayType(b, bNull), ArrayType(a, aNull)) => (bNull || !aNull) && tightens(b, a)
    case (MapType(bk, bv, bNull), MapType(ak, av, aNull)) =>
      (bNull || !aNull) && tightens(bk, ak) && tightens(bv, av)
    case (b: StructType, a: StructType) =>
      b.length == a.length && b.fields.zip(a.fields).forall { case (bf, af) =>
        bf.name == af.name && (bf.nullable || !af.nullable) && tightens(bf.dataType, af.dataType)
      }
    case _ => before == after
  }

  /**
   * `before` made as nullable as `after` wherever the two line up (position by position, same name
   * and shape): the schema to hold a stage to when some fields may become nullable.
   */
  def loosenedBy(before: Seq[PhysicalField], after: Seq[PhysicalField]): Seq[PhysicalField] =
    if (before.length != after.length) before
    else before.zip(after).map { case (b, a) =>
      if (b.name.equalsIgnoreCase(a.name) && sameShape(b.dataType, a.dataType)) {
        b.copy(dataType = looser(b.dataType, a.dataType), nullable = b.nullable || a.nullable)
      } else {
        b
      }
    }

  private def looser(before: DataType, after: DataType): DataType = (before, after) match {
    case (ArrayType(b, bNull), ArrayType(a, aNull)) => ArrayType(looser(b, a), bNull || aNull)
    case (MapType(bk, bv, bNull), MapType(ak, av, aNull)) =>
      MapType(looser(bk, ak), looser(bv, av), bNull || aNull)
    case (b: StructType, a: StructType) =>
      StructType(b.fields.zip(a.fields).map { case (bf, af) =>
        bf.copy(dataType = looser(bf.dataType, af.dataType), nullable = bf.nullable || af.nullable)
      })
    case _ => before
  }

  /** Same type when nullability is ignored everywhere. */
  private def sameShape(before: DataType, after: DataType): Boolean = (before, after) match {
    case (ArrayType(b, _), ArrayType(a, _)) => sameShape(b, a)
    case (MapType(bk, bv, _), MapType(ak, av, _)) => sameShape(bk, ak) && sameShape(bv, av)
    case (b: StructType, a: StructType) =>
      b.length == a.length && b.fields.zip(a.fields).forall { case (bf, af) =>
        bf.name == af.name && sameShape(bf.dataType, af.dataType)
      }
    case _ => before == after
  }

  /** What breaks "`after` keeps `before` exactly", or None. */
  def exactProblem(
      before: Seq[PhysicalField],
      after: Seq[PhysicalField],
      caseSensitive: Boolean = true): Option[String] =
    if (before.length == after.length &&
        before.zip(after).forall { case (b, a) => keeps(b, a, caseSensitive) }) {
      None
    } else {
      setProblem(before, after, caseSensitive).orElse(Some(
        s"the fields were reordered from ${names(before)} to ${names(after)}"))
    }

  /** What breaks "`after` keeps `before` as a set (any order)", or None. */
  def setProblem(
      before: Seq[PhysicalField],
      after: Seq[PhysicalField],
      caseSensitive: Boolean = true): Option[String] = {
    val unmatched = ArrayBuffer(after: _*)
    val lost = before.filter { b =>
      unmatched.indexWhere(a => keeps(b, a, caseSensitive)) match {
        case -1 => true
        case i => unmatched.remove(i); false
      }
    }
    if (lost.isEmpty && unmatched.isEmpty) None else Some(explain(lost, unmatched.toSeq))
  }

  private def explain(lost: Seq[PhysicalField], gained: Seq[PhysicalField]): String = {
    val problems = ArrayBuffer[String]()
    val left = ArrayBuffer(gained: _*)
    val renamedOrDropped = lost.filter { b =>
      left.indexWhere(_.name == b.name) match {
        case -1 => true
        case i =>
          val a = left.remove(i)
          problems += (
            if (!sameShape(b.dataType, a.dataType)) {
              s"${quote(b.name)} changed type from ${b.dataType.sql} to ${a.dataType.sql}"
            } else if (b.nullable == a.nullable) {
              s"${quote(b.name)} became nullable inside its type " +
                s"(${b.dataType.sql} to ${a.dataType.sql})"
            } else {
              s"${quote(b.name)} became nullable (it was NOT NULL)"
            })
          false
      }
    }
    if (renamedOrDropped.length == left.length) {
      renamedOrDropped.zip(left).foreach { case (b, a) =>
        problems += s"${quote(b.name)} was renamed to ${quote(a.name)}" +
          (if (sameShape(b.dataType, a.dataType)) "" else s" and retyped to ${a.dataType.sql}")
      }
    } else {
      renamedOrDropped.foreach(b => problems += s"${quote(b.name)} was dropped")
      left.foreach(a => problems += s"${quote(a.name)} was added")
    }
    problems.mkString("; ")
  }

  def render(fields: Seq[PhysicalField]): String = fields.map(_.sql).mkString("(", ", ", ")")

  def diff(
      beforeLabel: String,
      before: Seq[PhysicalField],
      afterLabel: String,
      after: Seq[PhysicalField]): String =
    s"$beforeLabel ${render(before)}; $afterLabel ${render(after)}"

  private def names(fields: Seq[PhysicalField]): String =
    fields.map(f => quote(f.name)).mkString("(", ", ", ")")

  private def quote(name: String): String = QuotingUtils.quoteIdentifier(name)
}
