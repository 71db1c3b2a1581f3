package io.colsem.respond

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{
  Alias, ArrayContains, Attribute, AttributeReference, Cast, Coalesce, ExprId, Expression,
  GetMapValue, Literal, MapKeys, NamedExpression, RuntimeReplaceable
}
import org.apache.spark.sql.catalyst.expressions.ElementAt
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.types.{BooleanType, MapType}

import io.colsem.shims.SparkShims

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
    val (rewritten, presence) = new Rewrite().apply(plan)
    val original = plan.output
    val tracked = original.indices.filter(i => presence.contains(original(i).exprId))
    if (tracked.isEmpty) return (plan, original.map(_ => -1))
    val ordinals = original.indices.map { i =>
      val at = tracked.indexOf(i)
      if (at < 0) -1 else original.size + at
    }
    (appendFlags(original, rewritten, tracked, i => presence(original(i).exprId)), ordinals)
  }

  /** `Project(output ++ one flag per tracked ordinal, child)`: the original columns keep their
   *  positions, so anything reading them by position (a CTE reference, a UNION) is unchanged. */
  private def appendFlags(
      output: Seq[Attribute],
      child: LogicalPlan,
      tracked: Seq[Int],
      flag: Int => Expression): LogicalPlan =
    Project(output ++ tracked.map(i => Alias(flag(i), s"$ColumnPrefix$i")()), child)

  /** The present expression of a lookup, over the lookup's own inputs; None for anything else. */
  def presenceOf(value: Expression): Option[Expression] = stripped(value) match {
    case GetMapValue(map, key) if key.deterministic => Some(mapHasKey(map, key))
    case ElementAt(map, key, _, _) if map.dataType.isInstanceOf[MapType] && key.deterministic =>
      Some(mapHasKey(map, key))
    case other => SparkShims.variantPresence(other)
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
  private final class Rewrite {

    /** For each CTE whose definition got flags: its original width and the ordinals with flags. */
    private val cteFlags = mutable.Map.empty[Long, (Int, Seq[Int])]

    def apply(plan: LogicalPlan): (LogicalPlan, Map[ExprId, Attribute]) = rewrite(plan)

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
        val extra =
          passed.toSeq.filterNot(a => projectList.exists(_.exprId == a.exprId)) ++ added.result()
        if (extra.isEmpty) (p, Map.empty)
        else (Project(projectList ++ extra, newChild), presence.result())
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
      case WithCTE(main, definitions) =>
        // Definitions come before their uses (a later one may read an earlier one).
        val newDefinitions = definitions.map { d =>
          if (SparkShims.isRecursive(d)) d
          else {
            val (newChild, presence) = rewrite(d.child)
            val original = d.child.output
            val tracked = original.indices.filter(i => presence.contains(original(i).exprId))
            if (tracked.isEmpty) d
            else {
              cteFlags(d.id) = (original.size, tracked)
              d.copy(child =
                appendFlags(original, newChild, tracked, i => presence(original(i).exprId)))
            }
          }
        }
        val (newMain, presence) = rewrite(main)
        // A reference the walk did not reach (under an aggregate, say) still reads the widened
        // definition: give it the flag columns too, unused, so every reference has its width.
        val allWidened = newMain.transformDownWithSubqueries {
          case ref: CTERelationRef if cteFlags.get(ref.cteId).exists(_._1 == ref.output.size) =>
            widened(ref)._1
        }
        (WithCTE(allWidened, newDefinitions), presence)
      case ref: CTERelationRef if cteFlags.get(ref.cteId).exists(_._1 == ref.output.size) =>
        widened(ref)
      case u @ Union(children, _, _) =>
        // UNION ALL reads its children by position: every child gets the same flag columns, TRUE
        // where that child's value is not a lookup (a value or NULL is present).
        val rewritten = children.map(rewrite)
        val tracked = u.output.indices.filter { i =>
          children.zip(rewritten).exists { case (c, (_, p)) => p.contains(c.output(i).exprId) }
        }
        if (tracked.isEmpty) return (u, Map.empty)
        val newChildren = children.zip(rewritten).map { case (c, (nc, p)) =>
          appendFlags(c.output, nc, tracked, i => p.getOrElse(c.output(i).exprId, Literal(true)))
        }
        val newUnion = u.withNewChildren(newChildren)
        val presence = tracked.zipWithIndex.map { case (i, k) =>
          u.output(i).exprId -> newUnion.output(u.output.size + k)
        }
        (newUnion, presence.toMap)
      case _ => (plan, Map.empty)
    }

    /** A reference to a widened CTE definition, with fresh attributes for the flag columns. */
    private def widened(ref: CTERelationRef): (LogicalPlan, Map[ExprId, Attribute]) = {
      val tracked = cteFlags(ref.cteId)._2
      val added = tracked.map(i => AttributeReference(s"$ColumnPrefix$i", BooleanType)())
      val presence = tracked.zip(added).map { case (i, a) =>
        ref.output(i).exprId -> (a: Attribute)
      }
      (ref.copy(output = ref.output ++ added), presence.toMap)
    }
  }
}
