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
 * vanilla Spark does (qualifiers, EXCEPT, errors and all) and drops the hidden columns. For
 * `SELECT * FROM star_ev WHERE _row_id > 150`, `_ingested_at` and `_row_id` hidden:
 * {{{
 *   'Project [colsem-star(*, hidden = ?)]                   <- iteration n: the child resolves
 *   +- Filter (_row_id#4 > 150)
 *      +- SubqueryAlias star_ev
 *         +- Relation star_ev [id#1, name#2, _ingested_at#3, _row_id#4, payload#5]
 *   =>
 *   'Project [colsem-star(*, hidden = {_ingested_at#3, _row_id#4})]      <- end of iteration n
 *   +- ...
 *   =>
 *   Project [id#1, name#2, payload#5]                       <- iteration n + 1
 *   +- Filter (_row_id#4 > 150)
 *      +- SubqueryAlias star_ev
 *         +- Relation star_ev [id#1, name#2, _ingested_at#3, _row_id#4, payload#5]
 * }}}
 * Golden: star_strategies.sql: SELECT * FROM star_ev WHERE _row_id > 150
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
