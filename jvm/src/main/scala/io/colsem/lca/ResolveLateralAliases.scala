package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{
  Star, UnresolvedAlias, UnresolvedAttribute, UnresolvedHaving
}
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Expression, NamedExpression}

import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Filter, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule

import org.apache.spark.sql.catalyst.trees.TreePattern.{
  LATERAL_COLUMN_ALIAS_REFERENCE, UNRESOLVED_ATTRIBUTE
}

import io.colsem.{ColsemConf, LateralAliasCandidate, LateralAliasScope, UserQueries}

/**
 * Resolution rule (last in each Resolution iteration): resolves the [[LateralAliasCandidate]]s of a
 * SELECT list whose input is resolved, all alias levels at once. The parts, each in its own file:
 *  - [[LateralAliasBinding]]: what each candidate means (the input's column, which wins; the one
 *    earlier alias of that name; or the plain name again for Spark) and the dependency levels;
 *  - [[AliasMaterialization]]: the used aliases computed once each, one Project per level below
 *    the list, and the [[Substitution]] by which the list reads them;
 *  - [[ChainFolding]]: in long lists, short plain chains folded into their users;
 *  - [[AggregateListRewrite]]: aggregate lists (per-row aliases below, per-group ones above);
 *  - [[AggregateSubqueries]]: subqueries of aggregate lists naming an alias, above the Aggregate.
 * A plain SELECT list:
 * {{{
 *   Project [a + 1 AS x, x * 2 AS y]               Project [x, (x * 2) AS y]
 *   +- Relation t [a, k]                    =>     +- Project [a, k, (a + 1) AS x]
 *      (x in the list: a candidate)                   +- Relation t [a, k]
 * }}}
 * Whatever this rule cannot rewrite (a level that does not resolve on its own) gets its plain
 * names back, and Spark's native support applies.
 */
class ResolveLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {
  import ResolveLateralAliases._
  import CallKinds.{hasAggregateCall, isNondeterministicCall}
  import Candidates.{hasCandidate, unmark}
  import ComputedAliases.{unwrapNamedReferences, PrivatePrefix}

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) return plan
    // Names outside a SELECT list (WHERE, subqueries) that may mean its aliases: never marked as
    // candidates, so only the scopes the setting names look for them.
    lazy val enabled = LateralAliasConf.enabled(conf) && !UserQueries.changesConf(plan)
    lazy val scopes = LateralAliasConf.extraScopes(conf)
    lazy val inWhere = enabled && scopes.contains(LateralAliasScope.Where)
    lazy val inSubqueries = enabled && scopes.contains(LateralAliasScope.Subquery)
    // Without a candidate or a native reference, only the extra scopes can change anything.
    val marked = plan.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE) ||
      UnresolvedOperators.existsInExpressions(plan)(_.isInstanceOf[LateralAliasCandidate])
    if (!marked && !inWhere && !inSubqueries) return plan
    // Aggregates a HAVING sits on: Spark needs them to stay directly below it.
    lazy val havingInputs = plan.collect { case UnresolvedHaving(_, a: Aggregate) => a }
    val aggregateList = new AggregateListRewrite(session, conf, nativeDepth)
    plan.resolveOperatorsUpWithPruning(
      _.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) {
      // A WHERE naming an alias of the list above it (WhereAliases). A star cannot expand before
      // the WHERE resolves, and then would expand over the aliases computed below the Filter: the
      // Filter gets their expressions, as below an aggregate list.
      case p @ Project(projectList, f: Filter) if inWhere && whereUses(projectList, f).nonEmpty =>
        if (hasStar(projectList) || projectList.exists(hasAggregateCall(session, _)) ||
            WhereAliases.lacksMore(f.condition, whereUses(projectList, f))) {
          inlineWhereAliases(p, projectList, f)
        } else {
          rewriteProject(p, Some(f), inSubqueries).getOrElse(p)
        }
      case a: Aggregate
          if inWhere && whereBelow(a).exists(whereUses(a.aggregateExpressions, _).nonEmpty) =>
        inlineWhereAliases(a, a.aggregateExpressions, whereBelow(a).get)
      // A star still unexpanded here would expand over the aliases computed below the list
      // (`SELECT true AS a, a AND b, * FROM t` would list `a` twice; a ColumnHidingStar always
      // waits one iteration): wait for Spark's ResolveReferences to expand it over the FROM input.
      case p: Project if hasStar(p.projectList) => p
      case a: Aggregate if hasStar(a.aggregateExpressions) => a
      // A subquery of the list naming an earlier alias (SubqueryAliases).
      case p @ Project(projectList, child)
          if inSubqueries && child.resolved &&
            !projectList.exists(hasAggregateCall(session, _)) &&
            projectList.exists(SubqueryAliases.hasUnresolvedSubquery) &&
            subqueryUses(projectList, child).nonEmpty =>
        rewriteProject(p, None, inSubqueries = true).getOrElse(unmark(p))
      // A subquery of an aggregate list naming an earlier alias (AggregateSubqueries), once the
      // list's own lateral aliases are resolved; HAVING needs its Aggregate directly below it.
      case a: Aggregate
          if inSubqueries && a.child.resolved && !havingInputs.exists(_ eq a) &&
            a.aggregateExpressions.exists(SubqueryAliases.hasUnresolvedSubquery) &&
            !a.aggregateExpressions.exists(hasCandidate) =>
        val uses = subqueryUses(a.aggregateExpressions, a.child)
        val rewritten =
          if (uses.isEmpty) None else AggregateSubqueries(session, conf.resolver, a, uses)
        rewritten.getOrElse(
          if (a.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE)) unwrapNamedReferences(a) else a)
      // A SELECT list with an aggregate and no GROUP BY is a global aggregate that Spark's
      // GlobalAggregates turns into an Aggregate once the list resolves: treat it as one now, or a
      // per-group reference (`SELECT true AS y, CASE WHEN y THEN 5 ELSE count(s) END`) would be
      // computed below it, outside any aggregate.
      case p @ Project(projectList, child)
          if child.resolved && projectList.exists(hasCandidate) &&
            projectList.exists(hasAggregateCall(session, _)) =>
        aggregateList(Aggregate(Nil, projectList, child), underHaving = false).getOrElse(unmark(p))
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) =>
        rewriteProject(p, None, inSubqueries).getOrElse(unmark(p))
      case a: Aggregate if a.child.resolved && a.aggregateExpressions.exists(hasCandidate) =>
        aggregateList(a, underHaving = havingInputs.exists(_ eq a)).getOrElse(unmark(a))
      case other if other.childrenResolved && other.expressions.exists(hasCandidate) =>
        unmark(other)
      case other if other.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE) =>
        unwrapNamedReferences(other)
    }
  }

  /** Native Spark's deepest lateral-alias chain: two analyzer iterations per level (49 at the
   *  default `spark.sql.analyzer.maxIterations`, 100). */
  private def nativeDepth: Int = (conf.analyzerMaxIterations - 2) / 2

  private def whereBelow(a: Aggregate): Option[Filter] = a.child match {
    case f: Filter => Some(f)
    case _ => None
  }

  private def whereUses(items: Seq[NamedExpression], f: Filter): Map[UnresolvedAttribute, Int] =
    WhereAliases.uses(session, conf.resolver, items, f)

  private def subqueryUses(
      items: Seq[NamedExpression],
      input: LogicalPlan): Map[Int, SubqueryAliases.Uses] =
    SubqueryAliases.uses(session, conf.resolver, items.toIndexedSeq, input)

  /** An aggregate list's aliases in the WHERE below it (or a list with a star): computed per
   *  group, after the WHERE, so the Filter gets their expressions; a non-deterministic one cannot
   *  be shared so, and stays Spark's unresolved name. */
  private def inlineWhereAliases(
      operator: LogicalPlan,
      items: Seq[NamedExpression],
      f: Filter): LogicalPlan = {
    val binding = LateralAliasBinding(session, conf.resolver, items.toIndexedSeq, f.child)
    val uses = whereUses(items, f)
    WhereAliases.checkPerRow(session, binding, uses)
    val inlined = uses.filterNot { case (_, j) =>
      binding.closure(Set(j)).exists(k =>
        binding.items(k).exists(isNondeterministicCall(session, _)))
    }
    if (inlined.isEmpty) operator
    else operator.withNewChildren(Seq(f.copy(condition =
      WhereAliases.rewrite(f.condition, inlined, WhereAliases.inline(binding)))))
  }

  /** A SELECT list: the aliases its items use computed below it, the list on top reading them;
   *  None when a level does not resolve on its own (the native path then gets the plain names).
   *  where: the unresolved WHERE below the list, whose aliases are computed below it (and its
   *  condition reads them there), the other used aliases above it. inSubqueries: whether the
   *  list's subqueries may read its aliases (`extraScopes` has SUBQUERY). */
  private def rewriteProject(
      p: Project,
      where: Option[Filter],
      inSubqueries: Boolean): Option[LogicalPlan] = {
    val input = where.fold(p.child)(_.child)
    val binding = LateralAliasBinding(
      session,
      conf.resolver,
      p.projectList.toIndexedSeq,
      input,
      if (inSubqueries) subqueryUses(p.projectList, input) else Map.empty)
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
            Some(Substitution(binding, conf.resolver, computed, Set.empty, privateNames = true))))
      case Some(f) =>
        val uses = whereUses(p.projectList, f)
        WhereAliases.checkPerRow(session, binding, uses)
        val start = Substitution(binding, conf.resolver, Map.empty, Set.empty, privateNames = true)
        materialization.materialize(
          binding,
          input,
          binding.closure(uses.values.toSet),
          copies = false,
          nativeDepth,
          maxDepth,
          Some(start)).map { case (below, substitution) =>
          val condition =
            WhereAliases.rewrite(f.condition, uses, substitution.value(_, _, asWritten = false))
          (Filter(condition, below), Some(substitution))
        }
    }
    filtered.flatMap { case (base, start) =>
      materialization.materialize(
        binding,
        base,
        wanted -- start.fold(Set.empty[Int])(_.computed.keySet),
        copies = false,
        nativeDepth,
        maxDepth,
        start)
    }.map {
      case (below, substitution) =>
        val top = binding.items.indices.map { i =>
          substitution.computed.get(i).map(substitution.output(i, _)).getOrElse(binding.items(
            i) match {
            case UnresolvedAlias(c: LateralAliasCandidate, None) => binding.meaning((i, c)) match {
                case Right(j) => substitution.reference(c, j)
                case Left(expr) => UnresolvedAlias(expr)
              }
            case u @ UnresolvedAlias(_, None) =>
              substitution.substitute(i, u, forNaming = true).asInstanceOf[NamedExpression]
            case item => substitution.substitute(i, item).asInstanceOf[NamedExpression]
          })
        }
        Project(top, below)
    }
  }
}

object ResolveLateralAliases {

  private def hasStar(list: Seq[Expression]): Boolean = list.exists(_.exists(_.isInstanceOf[Star]))
}
