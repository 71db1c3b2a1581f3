package io.colsem.invariants

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.Attribute
import org.apache.spark.sql.catalyst.plans.logical.{Join, LogicalPlan}
import org.apache.spark.sql.catalyst.util.QuotingUtils

/**
 * Invariant 2: within the output of one plan node, (relation, name) pairs are unique, so that
 * `relation.name` means one field. The same attribute listed twice (`SELECT t.a, t.a`) is one
 * field; fields without a relation (aliases) are told apart by position only and are not checked,
 * so the final output may repeat a bare name. Reported at the lowest node that produces the
 * duplicate (a self-join without aliases: the Join), with where each copy comes from.
 */
object DuplicateQualifiedFields {

  def find(plan: LogicalPlan, caseSensitive: Boolean): Option[Violation] = {
    var found: Option[Violation] = None
    (plan +: plan.subqueriesAll).foreach { root =>
      root.foreachUp { node => if (found.isEmpty) found = check(node, caseSensitive) }
    }
    found
  }

  private def check(node: LogicalPlan, caseSensitive: Boolean): Option[Violation] = {
    def norm(s: String) = if (caseSensitive) s else s.toLowerCase(Locale.ROOT)
    val seen = mutable.HashMap[(Seq[String], String), Attribute]()
    node.output.iterator.filter(_.qualifier.nonEmpty).flatMap { a =>
      val key = (a.qualifier.map(norm), norm(a.name))
      seen.get(key) match {
        case Some(first) if first.exprId != a.exprId => Some(first -> a)
        case Some(_) => None
        case None => seen(key) = a; None
      }
    }.nextOption().map { case (first, second) =>
      val field = (first.qualifier :+ first.name).map(QuotingUtils.quoteIfNeeded).mkString(".")
      Violation.duplicateField(describe(node), field, Seq(origin(node, first), origin(node, second)))
    }
  }

  private def describe(node: LogicalPlan): String = node match {
    case j: Join => s"${j.nodeName} (${j.joinType.sql})"
    case other => other.nodeName
  }

  /** Which input of `node` the field comes from and where its relation is in the SQL text. */
  private def origin(node: LogicalPlan, a: Attribute): String = {
    val index = node.children.indexWhere(_.outputSet.contains(a))
    val side = (node, index) match {
      case (_: Join, 0) => "the left side"
      case (_: Join, 1) => "the right side"
      case (_, -1) => "this node"
      case (_, i) => s"input ${i + 1}"
    }
    val source = if (index < 0) node else node.children(index)
    // The topmost node naming the field with a position: the relation as written (a copy made
    // to deduplicate a self-join carries the join's position, its alias keeps its own).
    val located = source.collect {
      case n if n.outputSet.contains(a) && n.origin.startPosition.isDefined => n.origin
    }.headOption
    val where = located.map(o => s" (line ${o.line.getOrElse(1)}, position ${o.startPosition.get + 1})")
    side + where.getOrElse("")
  }

}
