package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAlias, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.internal.SQLConf

import io.colsem.settings.ColsemConf
import io.colsem.vocabulary.LateralAliasCandidate

/**
 * The lateral aliases of a projection's SELECT list (ResolveLateralAliases draws a plain list;
 * [[WhereAliases]] one over a WHERE that names its aliases): the aliases the items use are
 * computed once each below the list ([[AliasMaterialization]], one Project per level), and the
 * list on top reads them through a [[Substitution]]. Over a WHERE naming the list's aliases,
 * those are computed below the Filter, whose condition reads them there, and the other used
 * aliases above it. None when a level does not resolve on its own: the native path then gets the
 * plain names.
 */
private[lca] final class ProjectionRewrite(
    session: SparkSession,
    conf: SQLConf,
    nativeDepth: Int) {
  import ComputedAliases.PrivatePrefix

  /** A SELECT list: the aliases its items use computed below it, the list on top reading them;
   *  None when a level does not resolve on its own (the native path then gets the plain names).
   *  where: the unresolved WHERE below the list with its names that mean the list's aliases,
   *  which are computed below it (and its condition reads them there), the other used aliases
   *  above it. subqueryUses: the names in the list's subqueries that mean its aliases. */
  def apply(
      p: Project,
      where: Option[(Filter, Map[UnresolvedAttribute, Int])],
      subqueryUses: Map[Int, SubqueryAliases.Uses]): Option[LogicalPlan] = {
    val input = where.fold(p.child)(_._1.child)
    val binding = LateralAliasBinding(
      session,
      conf.resolver,
      p.projectList.toIndexedSeq,
      input,
      subqueryUses)
    val wanted = binding.used
    val materialization = new AliasMaterialization(session, conf.resolver)
    val maxDepth = ColsemConf.LateralAliasMaxDepth.readFrom(conf)
    val filtered: Option[(LogicalPlan, Option[Substitution])] = where match {
      case None =>
        // Aliases a WHERE rewrite computed already (the list reads their columns): a subquery
        // resolved after it names those columns.
        val computed = binding.items.indices.flatMap(j =>
          binding.items(j) match {
            case Alias(a: Attribute, _)
                if a.name.startsWith(PrivatePrefix) && input.outputSet.contains(a) => Some(j -> a)
            case _ => None
          }).toMap
        Some((
          input,
          if (computed.isEmpty) None
          else
            Some(Substitution(binding, conf.resolver, computed, Set.empty, ComputedNames.Private))))
      case Some((f, uses)) =>
        WhereAliases.checkPerRow(session, binding, uses)
        val start =
          Substitution(binding, conf.resolver, Map.empty, Set.empty, ComputedNames.Private)
        materialization.materialize(
          binding,
          input,
          binding.closure(uses.values.toSet),
          ListKind.Projection,
          nativeDepth,
          maxDepth,
          Some(start)).map { case (below, substitution) =>
          val condition =
            WhereAliases.rewrite(
              f.condition,
              uses,
              substitution.value(_, _, AliasReading.ByAttribute))
          (Filter(condition, below), Some(substitution))
        }
    }
    filtered.flatMap { case (base, start) =>
      materialization.materialize(
        binding,
        base,
        wanted -- start.fold(Set.empty[Int])(_.computed.keySet),
        ListKind.Projection,
        nativeDepth,
        maxDepth,
        start)
    }.map {
      case (below, computedBelow) =>
        // An item without an alias is named by Spark from its text.
        def readingOf(item: NamedExpression): AliasReading = item match {
          case UnresolvedAlias(_, None) => AliasReading.ForNaming
          case _ => AliasReading.ByAttribute
        }
        val substitution = computedBelow.readingFolded(
          binding.items.indices.filterNot(computedBelow.computed.contains)
            .map(i => (i, readingOf(binding.items(i)))))
        val top = binding.items.indices.map { i =>
          substitution.computed.get(i).map(substitution.output(i, _)).getOrElse(binding.items(
            i) match {
            case UnresolvedAlias(c: LateralAliasCandidate, None) => binding.meaning((i, c)) match {
                case Right(j) => substitution.reference(c, j)
                case Left(expr) => UnresolvedAlias(expr)
              }
            // A folded alias a level read: its value as resolved there, not rebuilt from the
            // values it reads for Spark to resolve and walk again (a tree F deep per item).
            case a: Alias if substitution.resolvedFolded.contains(i) =>
              a.withNewChildren(Seq(substitution.resolvedFolded(i))).asInstanceOf[NamedExpression]
            case item =>
              substitution.substitute(i, item, readingOf(item)).asInstanceOf[NamedExpression]
          })
        }
        Project(top, below)
    }
  }
}
