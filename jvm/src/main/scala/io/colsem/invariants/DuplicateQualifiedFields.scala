package io.colsem.invariants

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, ExprId}
import org.apache.spark.sql.catalyst.plans.logical.{
  Expand, Join, LeafNode, LogicalPlan, SubqueryAlias
}
import org.apache.spark.sql.catalyst.util.QuotingUtils

import io.colsem.shims.AnalyzerInternals

/**
 * Invariant 2: within the output of one plan node, (relation, name) pairs are unique, so that
 * `relation.name` means one field. The same attribute listed twice (`SELECT t.a, t.a`) is one
 * field; fields without a relation (aliases) are told apart by position only and are not checked,
 * so the final output may repeat a bare name. Reported at the node that makes the duplicate (a
 * self-join without aliases: the Join; not the nodes above, which pass it on), with where each
 * copy comes from.
 *
 * Relations no user named are not checked: an unaliased subquery (Spark names it
 * `SubqueryAlias.generateSubqueryName()`, which no reference can mean) and a SQL function's
 * parameters (Spark projects them under the function's name below each call). Nor are leaves:
 * a leaf with qualified fields reads copies of fields made elsewhere (a CTE reference; a recursive
 * CTE's loop reference, and the rows of its last iteration), checked where they are made; nor a
 * recursive CTE's loop, which repeats the anchor's columns under the anchor's relation.
 */
object DuplicateQualifiedFields {

  def find(plan: LogicalPlan, caseSensitive: Boolean): Option[Violation] = {
    val plans = plan +: plan.subqueriesAll
    val (copies, parameters) = internalFields(plans)
    var found: Option[Violation] = None
    plans.foreach { root =>
      root.foreachUp { node =>
        if (found.isEmpty) found = check(node, caseSensitive, copies, parameters)
      }
    }
    found
  }

  /** Whether `relation` is the name Spark gives an unaliased subquery. */
  private[invariants] def isGeneratedSubqueryName(relation: String): Boolean =
    relation.startsWith(SubqueryAlias.generateSubqueryName())

  /**
   * Copies of a column under its own relation and name, as Spark's analysis of ROLLUP, CUBE and
   * GROUPING SETS makes them (`Alias(a, a.name)` keeping `a`'s qualifier) to carry the grouping
   * value beside the original through Expand (which is skipped for the same reason). They are
   * internal: no reference can name the copy. Also the SQL function parameters of the plans.
   */
  private def internalFields(plans: Seq[LogicalPlan]): (Set[(ExprId, ExprId)], Set[ExprId]) = {
    val copies = mutable.HashSet[(ExprId, ExprId)]()
    val parameters = mutable.HashSet[ExprId]()
    plans.foreach(_.foreach(_.expressions.foreach(_.foreach {
      case alias @ Alias(a: Attribute, name)
          if name == a.name && alias.qualifier.nonEmpty && alias.qualifier == a.qualifier =>
        copies += alias.exprId -> a.exprId
      case e => parameters ++= AnalyzerInternals.sqlFunctionParameters(e).map(_.exprId)
    })))
    (copies.toSet, parameters.toSet)
  }

  private def check(
      node: LogicalPlan,
      caseSensitive: Boolean,
      copies: Set[(ExprId, ExprId)],
      parameters: Set[ExprId]): Option[Violation] = if (isInternal(node)) None
  else {
    def norm(s: String) = if (caseSensitive) s else s.toLowerCase(Locale.ROOT)
    def named(a: Attribute) = a.qualifier.nonEmpty && !isGeneratedSubqueryName(a.qualifier.last) &&
      !parameters.contains(a.exprId)
    val seen = mutable.HashMap[(Seq[String], String), Attribute]()
    node.output.iterator.filter(named).flatMap { a =>
      val key = (a.qualifier.map(norm), norm(a.name))
      seen.get(key) match {
        case Some(first)
            if first.exprId != a.exprId &&
              !copies.contains(first.exprId -> a.exprId) && !copies.contains(
                a.exprId -> first.exprId) &&
              !node.children.exists(passesOn(_, first, a)) =>
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

  /** Whether `child` already has both fields, qualified as they are: the duplicate is its. */
  private def passesOn(child: LogicalPlan, first: Attribute, second: Attribute): Boolean = {
    def has(a: Attribute) =
      child.output.exists(o => o.exprId == a.exprId && o.qualifier == a.qualifier)
    has(first) && has(second)
  }

  private def isInternal(node: LogicalPlan): Boolean =
    node.isInstanceOf[Expand] || node.isInstanceOf[LeafNode] ||
      AnalyzerInternals.isRecursiveLoop(node)

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
    val where =
      located.map(o => s" (line ${o.line.getOrElse(1)}, position ${o.startPosition.get + 1})")
    side -> where.getOrElse("")
  }

}
