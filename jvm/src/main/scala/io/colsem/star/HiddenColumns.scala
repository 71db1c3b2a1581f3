package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.Resolver
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Coalesce, ExprId, NamedExpression
}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.catalyst.trees.Origin

/**
 * Where a column comes from, as far as `*` cares: the one answer star expansion, temp views,
 * `colsem_columns()` and the write checks ask. A column of any plan is hidden when it is the same
 * attribute (the same expression id) as a hidden column of its source (a table, a stream of it, a
 * view, a DataFrame, a pipeline's dataset), whatever operators it passed through unchanged. No
 * operator is listed as one that keeps columns: a filter, watermark, deduplication, join, union,
 * repartition, hint, `observe`, or an operator a later Spark adds, passes the attribute on with
 * its id, and the column stays hidden.
 *
 * What ends a column's hiding is a choice of columns: a SELECT list or DataFrame `select`, an
 * aggregate, a SQL subquery or CTE (Flink's rule: only columns that come straight from a table
 * are hidden). `SELECT * FROM (SELECT _row_id, * FROM events)` keeps `_row_id`; a column
 * re-selected by a DataFrame keeps what its field metadata says, where it is the star's own input.
 * A DataFrame call that carries its input's columns over (`withColumn`, `drop`, `na.fill`,
 * `unionByName`; [[MarkCarriedColumns]]) passes them on, hidden ones included; a column the user
 * named there is a new attribute and shows. Libraries that build plans with those calls and read
 * them back through `*` inside a command (Delta's MERGE) get every column: their stars are no
 * user's ([[StarAuthors]]).
 * {{{
 *   spark.readStream.table("events").withWatermark("ts", "10 seconds").select("*")
 *
 *   Project [*]                                   hidden = {_ingest#4}: the same attribute
 *   +- EventTimeWatermark ts#3, 10 seconds          [id#1, k#2, ts#3, _ingest#4]
 *      +- SubqueryAlias spark_catalog.default.events
 *         +- StreamingRelation events             [id#1, k#2, ts#3, _ingest#4]  property: _ingest
 *   =>
 *   Project [id#1, k#2, ts#3]
 *   +- EventTimeWatermark ts#3, 10 seconds
 *      +- ...
 * }}}
 * Golden: none (a stream's plan; golden files run batch SQL, every operator over both is here):
 *   tests/test_star_matrix.py::test_star_over_every_operator_hides_as_over_the_table
 */
object HiddenColumns {

  /** Each column's reasons to be left out of `*`, by expression id (a column with none: absent). */
  type Markers = Map[ExprId, Seq[HidingMarker]]

  /** The relation under a table reference's aliases (`t AS target`, the catalog's own alias). */
  def underAliases(plan: LogicalPlan): LogicalPlan = ColumnSource.underAliases(plan)

  /** The markers of `plan`'s output columns, whether or not the session's strategies are on. */
  def markers(
      plan: LogicalPlan,
      configuredPattern: Option[String],
      resolver: Resolver,
      origin: Option[Origin] = None): Markers = {
    def fromSource(source: ColumnSource): Markers =
      source.markers(configuredPattern, resolver, origin).collect {
        case (a, found) if found.nonEmpty => a.exprId -> found
      }.toMap

    def walk(plan: LogicalPlan, top: Boolean): Markers = plan match {
      case SubqueryAlias(id, leaf: LeafNode) if id.qualifier.size >= 2 =>
        // A leaf under a catalog table's name: a pipeline's stand-in for one of its datasets.
        ColumnSource.named(id.qualifier :+ id.name, leaf, resolver).orElse(ColumnSource.of(leaf))
          .map(fromSource).getOrElse(Map.empty)
      case SubqueryAlias(_, child) if isChoice(underAliases(child)) =>
        Map.empty // a subquery: its columns were chosen explicitly
      case p @ Project(_, j: Join) if isUsingJoinProjection(p) => passedOn(p, walk(j, false))
      case p: Project if CarriedColumns.of(p).isDefined =>
        // A DataFrame call's projection (withColumn, drop, na.fill): what it carried over keeps
        // its hiding, a column rewritten in place without a name too; its own field metadata
        // hides where it is the star's input.
        val rewritten = CarriedColumns.of(p).get.rewritten
        val inputs = walk(p.child, false)
        val carried = passedOn(p, inputs) ++ rewritten.flatMap { case (now, was) =>
          inputs.get(was).map(now -> _)
        }
        if (top) merge(carried, ownMetadata(p.output)) else carried
      // A DataFrame's own top operator (`df.select("secret", "id").select("*")`): only the
      // columns its field metadata tags; below an operator, a choice shows every column.
      case _: Project | _: Aggregate => if (top) ownMetadata(plan.output) else Map.empty
      case v: View if ColumnSource.isDataFrameView(v) =>
        // A DataFrame's temp view is that DataFrame, under the view's own markers.
        merge(
          passedOn(v, walk(v.child, top)),
          ColumnSource.of(v).map(fromSource).getOrElse(Map.empty))
      case _: CTERelationRef => Map.empty // chosen by the CTE's query
      case u: Union if u.getTagValue(UnionInputs.Tag).isDefined =>
        // unionByName: the user's inputs, under the projections Spark added to line them up.
        val inputs = u.getTagValue(UnionInputs.Tag).get
        passedOn(
          u,
          u.children.map(c => walk(UnionInputs.unionInput(c, inputs), false))
            .fold(Map.empty)(merge))
      case j: LateralJoin =>
        // The lateral subquery's columns are the join's too.
        passedOn(j, merge(walk(j.left, false), walk(j.right.plan, false)))
      case _ =>
        ColumnSource.of(plan).map(fromSource)
          .getOrElse(passedOn(plan, plan.children.map(walk(_, false)).fold(Map.empty)(merge)))
    }

    walk(plan, top = true)
  }

  /** The expression ids of the input's output columns that `*` leaves out. */
  def hiddenIds(
      input: LogicalPlan,
      exclusion: StarExclusion,
      resolver: Resolver,
      origin: Option[Origin] = None): Set[ExprId] =
    markers(input, exclusion.patternText, resolver, origin).collect {
      case (id, found) if exclusion.hides(found) => id
    }.toSet

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

  /** An operator whose output is a choice of columns, not its input's columns passed on. */
  private def isChoice(plan: LogicalPlan): Boolean = plan match {
    case p: Project => !isUsingJoinProjection(p) && !CarriedColumns.isCarried(p)
    case _: Aggregate => true
    case _ => false
  }

  /** The markers of the columns `node` passes on unchanged (the same ids). */
  private def passedOn(node: LogicalPlan, inputs: Markers): Markers =
    node.output.flatMap(a => inputs.get(a.exprId).map(a.exprId -> _)).toMap

  private def ownMetadata(columns: Seq[Attribute]): Markers =
    columns.filter(HiddenColumnTags.taggedByMetadata).map(_.exprId -> Seq(ColumnSource.ByMetadata))
      .toMap

  private def merge(a: Markers, b: Markers): Markers =
    if (a.isEmpty) b
    else if (b.isEmpty) a
    else (a.keySet ++ b.keySet).map(id =>
      id -> (a.getOrElse(id, Nil) ++ b.getOrElse(id, Nil)).distinct).toMap

  /** The projection Spark puts over a `JOIN ... USING (...)` or NATURAL JOIN: join keys (merged
   *  with COALESCE for outer joins) then the remaining columns of both sides. */
  private def isUsingJoinProjection(p: Project): Boolean = p.child.isInstanceOf[Join] && {
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
