package io.colsem.invariants

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, ExprId}
import org.apache.spark.sql.catalyst.plans.logical.{Expand, Join, LogicalPlan}
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
    val plans = plan +: plan.subqueriesAll
    val copies = groupingCopies(plans)
    var found: Option[Violation] = None
    plans.foreach { root =>
      root.foreachUp { node => if (found.isEmpty) found = check(node, caseSensitive, copies) }
    }
    found
  }

  /**
   * Copies of a column under its own relation and name, as Spark's analysis of ROLLUP, CUBE and
   * GROUPING SETS makes them (`Alias(a, a.name)` keeping `a`'s qualifier) to carry the grouping
   * value beside the original through Expand (which is skipped for the same reason). They are
   * internal: no reference can name the copy.
   */
  private def groupingCopies(plans: Seq[LogicalPlan]): Set[(ExprId, ExprId)] = {
    val copies = mutable.HashSet[(ExprId, ExprId)]()
    plans.foreach(_.foreach(_.expressions.foreach(_.foreach {
      case alias @ Alias(a: Attribute, name)
          if name == a.name && alias.qualifier.nonEmpty && alias.qualifier == a.qualifier =>
        copies += alias.exprId -> a.exprId
      case _ =>
    })))
    copies.toSet
  }

  private def check(node: LogicalPlan, caseSensitive: Boolean,
      copies: Set[(ExprId, ExprId)]): Option[Violation] = if (node.isInstanceOf[Expand]) None else {
    def norm(s: String) = if (caseSensitive) s else s.toLowerCase(Locale.ROOT)
    val seen = mutable.HashMap[(Seq[String], String), Attribute]()
    node.output.iterator.filter(_.qualifier.nonEmpty).flatMap { a =>
      val key = (a.qualifier.map(norm), norm(a.name))
      seen.get(key) match {
        case Some(first) if first.exprId != a.exprId &&
            !copies.contains(first.exprId -> a.exprId) && !copies.contains(a.exprId -> first.exprId) =>
          Some(first -> a)
        case Some(_) => None
        case None => seen(key) = a; None
      }
    }.take(1).toList.headOption.map { case (first, second) =>
      val field = (first.qualifier :+ first.name).map(QuotingUtils.quoteIfNeeded).mkString(".")
      val origins = Seq(origin(node, first), origin(node, second))
      // Spark resolves a relation named twice once and copies it, position included: a position
      // only tells the copies apart when they differ.
      val shown = if (origins.map(_._2).distinct.size == 2) origins.map { case (s, w) => s + w }
        else origins.map(_._1)
      Violation.duplicateField(describe(node), field, shown)
    }
  }

  private def describe(node: LogicalPlan): String = node match {
    case j: Join => s"${j.nodeName} (${j.joinType.sql})"
    case other => other.nodeName
  }

  /** Which input of `node` the field comes from, and where in the SQL text it is defined: its
   *  alias, or else the relation as written. */
  private def origin(node: LogicalPlan, a: Attribute): (String, String) = {
    val index = node.children.indexWhere(_.outputSet.contains(a))
    val side = (node, index) match {
      case (_: Join, 0) => "the left side"
      case (_: Join, 1) => "the right side"
      case _ if node.children.size > 1 && index >= 0 => s"input ${index + 1}"
      case _ => "a column of the input"
    }
    val source = if (index < 0) node else node.children(index)
    val alias = source.flatMap(_.expressions.flatMap(_.collect {
      case al: Alias if al.exprId == a.exprId && al.origin.startPosition.isDefined => al.origin
    })).headOption
    // Else the topmost node naming the field with a position: the relation as written.
    val located = alias.orElse(source.collect {
      case n if n.outputSet.contains(a) && n.origin.startPosition.isDefined => n.origin
    }.headOption)
    val where = located.map(o => s" (line ${o.line.getOrElse(1)}, position ${o.startPosition.get + 1})")
    side -> where.getOrElse("")
  }

}
