package io.colsem.respond

import org.apache.spark.sql.catalyst.expressions.{Alias, ArrayContains, Attribute, Cast, Coalesce, ExprId, Expression, GetMapValue, IsNotNull, Literal, MapKeys, NamedExpression, RuntimeReplaceable}
import org.apache.spark.sql.catalyst.expressions.ElementAt
import org.apache.spark.sql.catalyst.expressions.variant.VariantGet
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.types.{MapType, VariantType}

/**
 * Tells a MISSING value from a NULL one for the output columns of an analyzed plan.
 *
 * Spark has MISSING values only in semi-structured data: a key absent from a MAP (`m['k']`,
 * `element_at(m, 'k')`, `try_element_at`) and a path absent from a VARIANT (`variant_get(v, '$.k',
 * type)`, `try_variant_get`, `v:k`). Those lookups return SQL NULL both for an absent key and for a
 * key whose value is null, so the typed result alone cannot tell them apart. For every output
 * column whose value is such a lookup (through aliases, casts, projections, filters, sorts, limits,
 * joins, windows, generators, subquery aliases and views), [[addTo]] adds a boolean "present"
 * column computed beside it from the same input: `map_contains_key(m, k)` for a map, the untyped
 * `variant_get(v, path) IS NOT NULL` for a variant (a JSON `null` is a variant null, not SQL NULL).
 *
 * Present is false when the key or path is absent, also when the map or variant itself is NULL
 * (the whole document is absent). It is NULL where the row itself has no such document: the
 * unmatched side of an outer join. Values that went through an aggregate, a DISTINCT, a set
 * operation or anything else not listed above are not lookups any more: they get no present column
 * (adding one there would change which rows exist).
 */
object PresenceColumns {

  /** Prefix of the added columns' names; they are found by position, the name is for plan dumps. */
  val ColumnPrefix = "__colsem_present_"

  /**
   * `plan` (analyzed) with one boolean column appended per output column that has a present
   * column, and for each original output column the ordinal of its present column (or -1).
   */
  def addTo(plan: LogicalPlan): (LogicalPlan, Seq[Int]) = {
    val (rewritten, presence) = rewrite(plan)
    val original = plan.output
    val tracked = original.zipWithIndex.filter { case (a, _) => presence.contains(a.exprId) }
    if (tracked.isEmpty) return (plan, original.map(_ => -1))
    val extra = tracked.map { case (a, i) => Alias(presence(a.exprId), s"$ColumnPrefix$i")() }
    val ordinals = original.indices.map { i =>
      val at = tracked.indexWhere(_._2 == i)
      if (at < 0) -1 else original.size + at
    }
    (Project(original ++ extra, rewritten), ordinals)
  }

  /** The present expression of a lookup, over the lookup's own inputs; None for anything else. */
  def presenceOf(value: Expression): Option[Expression] = stripped(value) match {
    case GetMapValue(map, key) if key.deterministic => Some(mapHasKey(map, key))
    case ElementAt(map, key, _, _) if map.dataType.isInstanceOf[MapType] && key.deterministic =>
      Some(mapHasKey(map, key))
    case VariantGet(variant, path, _, _, timeZoneId) =>
      Some(IsNotNull(VariantGet(variant, path, VariantType, failOnError = false, timeZoneId)))
    case _ => None
  }

  private def mapHasKey(map: Expression, key: Expression): Expression =
    Coalesce(Seq(ArrayContains(MapKeys(map), key), Literal(false)))

  /** A cast, `try_...` wrapper or alias leaves a lookup a lookup (a view's up-cast, say). */
  private def stripped(e: Expression): Expression = e match {
    case Alias(child, _) => stripped(child)
    case c: Cast => stripped(c.child)
    case r: RuntimeReplaceable => stripped(r.replacement)
    case other => other
  }

  /**
   * The rewritten plan (same output plus present columns where some survive) and, by the exprId of
   * an output attribute of `plan`, the attribute of the rewritten plan holding its present flag.
   */
  private def rewrite(plan: LogicalPlan): (LogicalPlan, Map[ExprId, Attribute]) = plan match {
    case p @ Project(projectList, child) =>
      val (newChild, below) = rewrite(child)
      val added = Seq.newBuilder[NamedExpression]
      val presence = Map.newBuilder[ExprId, Attribute]
      val passed = scala.collection.mutable.LinkedHashSet.empty[Attribute]
      projectList.foreach { item =>
        val source = stripped(item)
        source match {
          case a: Attribute if below.contains(a.exprId) =>
            val flag = below(a.exprId)
            passed += flag
            presence += item.exprId -> flag
          case _ =>
            presenceOf(item).filter(_.references.subsetOf(newChild.outputSet)).foreach { flag =>
              val column = Alias(flag, s"${ColumnPrefix}${item.name}")()
              added += column
              presence += item.exprId -> column.toAttribute
            }
        }
      }
      val extra = passed.toSeq.filterNot(a => projectList.exists(_.exprId == a.exprId)) ++ added.result()
      if (extra.isEmpty) (p, Map.empty) else (Project(projectList ++ extra, newChild), presence.result())
    case _: Filter | _: Sort | _: GlobalLimit | _: LocalLimit | _: Offset | _: Tail |
         _: SubqueryAlias | _: View | _: Window | _: Generate | _: Join | _: Sample |
         _: Repartition | _: RepartitionByExpression | _: ResolvedHint =>
      val rewrittenChildren = plan.children.map(rewrite)
      val below = rewrittenChildren.flatMap(_._2).toMap
      if (below.isEmpty) return (plan, Map.empty)
      val newPlan = plan.withNewChildren(rewrittenChildren.map(_._1))
      // What a node passes on from its children is found by exprId: a semi join passes the left
      // side only, an outer join makes the other side's flags nullable.
      val outputById = newPlan.output.map(a => a.exprId -> a).toMap
      val survives = plan.output.flatMap { a =>
        below.get(a.exprId).flatMap(flag => outputById.get(flag.exprId)).map(a.exprId -> _)
      }.toMap
      (newPlan, survives)
    case _ => (plan, Map.empty)
  }
}
