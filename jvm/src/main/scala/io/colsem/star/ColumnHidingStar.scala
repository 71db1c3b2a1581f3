package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.Star
import org.apache.spark.sql.catalyst.expressions.{ExprId, NamedExpression}

import io.colsem.shims.DelegatingStar

/**
 * A `*`, `t.*` or `* EXCEPT (...)` that leaves out the hidden columns of its input.
 *
 * Spark's ResolveReferences expands stars as soon as their operator's child is resolved, and
 * gives the star only the child's output, not the child plan; which columns are hidden depends on
 * where each column comes from, which only the plan says. So the star expands in two steps:
 * while `hidden` is unknown it expands to itself (Spark keeps the operator unresolved and tries
 * again next iteration); [[ResolveColumnHidingStars]], at the end of the same iteration, reads the
 * resolved child and fills `hidden`; the next iteration expands the wrapped star exactly as
 * vanilla Spark does (qualifiers, EXCEPT, errors and all) and drops the hidden columns.
 * {{{
 *   Project [colsem-star(*, hidden = ?)]      Project [colsem-star(*, hidden = {_ingest_ts#3})]
 *   +- Relation t [id#1, v#2, _ingest_ts#3]  =>  ...  =>  Project [id#1, v#2]
 * }}}
 */
case class ColumnHidingStar(
    star: Star,
    exclusion: StarExclusion,
    hidden: Option[Set[ExprId]] = None)
  extends DelegatingStar {

  override def expansion(wrapped: => Seq[NamedExpression]): Seq[NamedExpression] = hidden match {
    case None => Seq(this)
    case Some(ids) => HiddenColumns.withoutHidden(wrapped, ids)
  }

  override def toString: String = star.toString
}
