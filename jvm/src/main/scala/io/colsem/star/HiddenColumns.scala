package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Coalesce, ExprId, NamedExpression
}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.catalyst.trees.Origin

import io.colsem.StarStrategy

/**
 * Which columns of a star's input `*` leaves out. As in Flink, only columns that come straight
 * from a table, view or DataFrame are candidates: the walk passes through the operators of the
 * star's own FROM clause (aliases, joins, filters, ...) and stops at a subquery, whose columns were
 * selected explicitly (`SELECT * FROM (SELECT rt1, * FROM t)` keeps `rt1`).
 */
object HiddenColumns {

  /** The relation under a table reference's aliases (`t AS target`, the catalog's own alias). */
  def underAliases(plan: LogicalPlan): LogicalPlan = ColumnSource.underAliases(plan)

  /** The expression ids of the input's output columns that `*` leaves out. */
  def hiddenIds(
      input: LogicalPlan,
      exclusion: StarExclusion,
      resolver: Resolver,
      origin: Option[Origin] = None): Set[ExprId] = {
    val pattern = exclusion.patternText
    def fromSource(source: ColumnSource): Set[ExprId] =
      source.markers(pattern, resolver, origin).collect {
        case (a, markers) if exclusion.hides(markers) => a.exprId
      }.toSet

    def walk(plan: LogicalPlan): Option[Set[ExprId]] = plan match {
      case SubqueryAlias(id, leaf: LeafNode) if id.qualifier.size >= 2 =>
        // A leaf under a catalog table's name: a pipeline's stand-in for one of its datasets.
        val source = ColumnSource.named(id.qualifier :+ id.name, leaf, resolver)
          .orElse(ColumnSource.of(leaf))
        Some(source.map(fromSource).getOrElse(Set.empty))
      case SubqueryAlias(_, child) =>
        Some(if (isSource(child)) walk(child).getOrElse(Set.empty) else Set.empty)
      case j: Join => Some(walk(j.left).getOrElse(Set.empty) ++ walk(j.right).getOrElse(Set.empty))
      case j: LateralJoin => Some(walk(j.left).getOrElse(Set.empty))
      case g: Generate => Some(walk(g.child).getOrElse(Set.empty))
      case p @ Project(_, j: Join) if isUsingJoinProjection(p) =>
        Some(walk(j).getOrElse(Set.empty) intersect p.output.map(_.exprId).toSet)
      case u: UnaryNode if keepsColumns(u) => Some(walk(u.child).getOrElse(Set.empty))
      case other => ColumnSource.of(other).map(fromSource)
    }

    walk(input).getOrElse {
      // A DataFrame's own top operator (`df.select("*")` on a projection, aggregate, union...):
      // only columns it tags itself are hidden.
      if (!exclusion.isOn(StarStrategy.Tagged)) Set.empty
      else input.output.filter(HiddenColumnTags.taggedByMetadata).map(_.exprId).toSet
    }
  }

  /** A star's expansion without the hidden columns. Struct fields of `s.*` are aliases, never
   *  hidden: they are not columns of a table. */
  def withoutHidden(expanded: Seq[NamedExpression], hidden: Set[ExprId]): Seq[NamedExpression] =
    if (hidden.isEmpty) expanded
    else expanded.filterNot {
      case a: Attribute => hidden.contains(a.exprId)
      case _ => false
    }

  /** The hidden columns of a write's target that the data written does not provide, if any. */
  def notProvided(
      target: LogicalPlan,
      provided: Seq[String],
      exclusion: StarExclusion,
      resolver: Resolver): Option[HiddenColumnsNotProvided] =
    ColumnSource.of(target).flatMap(notProvidedBy(_, provided, exclusion, resolver))

  /** The same for a target known as a source, not as a plan (a stream's sink table). */
  def notProvidedBy(
      source: ColumnSource,
      provided: Seq[String],
      exclusion: StarExclusion,
      resolver: Resolver): Option[HiddenColumnsNotProvided] = {
    val hidden = source.markers(exclusion.patternText, resolver).collect {
      case (column, markers) if exclusion.hides(markers) => column.name
    }
    val unprovided = hidden.filterNot(h => provided.exists(resolver(_, h)))
    if (unprovided.isEmpty) None
    else Some(HiddenColumnsNotProvided(
      source.name.getOrElse("?"),
      unprovided,
      source.output.map(_.name).filter(c => provided.exists(resolver(_, c)))))
  }

  /** A table, view or DataFrame leaf under any number of aliases (`FROM t AS x`), as opposed to a
   *  subquery or CTE. */
  private def isSource(plan: LogicalPlan): Boolean = plan match {
    case SubqueryAlias(_, child) => isSource(child)
    case other => ColumnSource.of(other).isDefined
  }

  /** Operators that pass their child's columns on unchanged. */
  private def keepsColumns(plan: UnaryNode): Boolean = plan match {
    case _: Filter | _: Sort | _: Sample | _: Distinct | _: Deduplicate | _: GlobalLimit |
        _: LocalLimit | _: Offset | _: Tail | _: ResolvedHint | _: Repartition |
        _: RepartitionByExpression => true
    case _ => false
  }

  /** The projection Spark puts over a `JOIN ... USING (...)` or NATURAL JOIN: join keys (merged
   *  with COALESCE for outer joins) then the remaining columns of both sides. */
  private def isUsingJoinProjection(p: Project): Boolean = {
    val joinOutput = p.child.outputSet
    p.projectList.forall {
      case a: Attribute => joinOutput.contains(a)
      case Alias(Coalesce(args), _) => args.forall {
          case a: Attribute => joinOutput.contains(a)
          case _ => false
        }
      case _ => false
    }
  }
}
