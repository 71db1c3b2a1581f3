package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Star, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.expressions.NamedExpression

import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate, AnalysisHelper, Filter, LogicalPlan, Project
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.{CurrentOrigin, TreePatternBits}

import org.apache.spark.sql.catalyst.trees.TreePattern.{
  LATERAL_COLUMN_ALIAS_REFERENCE, UNRESOLVED_ATTRIBUTE
}

import io.colsem.settings.LateralAliasScope
import io.colsem.vocabulary.{LateralAliasCandidate, UserQueries}

/**
 * Resolution rule: resolves the [[LateralAliasCandidate]]s of a SELECT list whose input is
 * resolved, all alias levels at once. Spark runs injected resolution rules after its own in each
 * Resolution iteration, so a list's input is resolved in the iteration Spark can resolve it, and
 * this rule rewrites the list in that same iteration. colsem's rules that report a name no alias
 * resolved (ReportForwardLateralAliases, ReportOutOfScopeLateralAliases) are post-hoc rules: they
 * run once the fixed point ends, so they see only the names this rule left. The parts, each in
 * its own file:
 *  - [[LateralAliasBinding]]: what each candidate means (the input's column, which wins; the one
 *    earlier alias of that name; or the plain name again for Spark) and the dependency levels;
 *  - [[AliasMaterialization]]: the used aliases computed once each, one Project per level below
 *    the list, and the [[Substitution]] by which the list reads them;
 *  - [[ChainFolding]]: in long lists, short plain chains folded into their users;
 *  - [[ProjectionRewrite]]: projection lists, over a WHERE naming their aliases or not;
 *  - [[AggregateListRewrite]]: aggregate lists (per-row aliases below, per-group ones above);
 *  - [[AggregateSubqueries]]: subqueries of aggregate lists naming an alias, above the Aggregate.
 * A plain SELECT list:
 * {{{
 *   Project [s1 + 1 AS x, x * 2 AS y]             Project [x, (x * 2) AS y]
 *   +- Relation t1 [s1, s2, s3]            =>     +- Project [s1, s2, s3, (s1 + 1) AS x]
 *      (x in the list: a candidate)                  +- Relation t1 [s1, s2, s3]
 * }}}
 * Golden: lateral_alias_drawings.sql: SELECT s1 + 1 AS x, x * 2 AS y FROM t1
 * Whatever this rule cannot rewrite (a level that does not resolve on its own) gets its plain
 * names back, and Spark's native support applies.
 */
class ResolveLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {
  import CallKinds.isNondeterministicCall
  import Candidates.{hasCandidate, unmark}
  import ComputedAliases.unwrapNamedReferences

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) return plan
    // Names outside a SELECT list (WHERE, subqueries) that may mean its aliases: never marked as
    // candidates, so only the scopes the setting names look for them. Candidates themselves are
    // marked only where the feature is enabled (MarkLateralAliasCandidates).
    lazy val scopes: Set[LateralAliasScope] =
      if (LateralAliasConf.enabled(conf) && !UserQueries.changesConf(plan)) {
        LateralAliasConf.extraScopes(conf).toSet
      } else {
        Set.empty
      }
    // Without a candidate or a native reference, only the extra scopes can change anything.
    val marked = plan.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE) ||
      UnresolvedOperators.existsInExpressions(plan)(_.isInstanceOf[LateralAliasCandidate])
    if (!marked && scopes.isEmpty) return plan
    def mayChange(tree: TreePatternBits): Boolean =
      tree.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)
    // An Aggregate is resolved by its parent's visit, which sees the shape it sits in (as Spark's
    // rules match `UnresolvedHaving(_, agg: Aggregate)`): not by identity against the plan before
    // the pass, which hands a parent a new Aggregate when something below it changed. As the
    // pass would, only a changed one that was not analyzed, under its own origin, keeping its tags.
    def aggregateIn(parent: AggregateParent)(operator: LogicalPlan): LogicalPlan = operator match {
      case a: Aggregate if !a.analyzed && mayChange(a) =>
        val list = new SelectList(a.aggregateExpressions, a.child, scopes)
        val resolved = CurrentOrigin.withOrigin(a.origin)(resolveAggregate(a, list, parent))
        if (resolved ne a) resolved.copyTagsFrom(a)
        resolved
      case other => other
    }
    val resolved = plan.resolveOperatorsUpWithPruning(mayChange) {
      case operator =>
        operator.mapChildren(aggregateIn(AggregateParent.of(operator))) match {
          case p: Project => resolveProject(p, new SelectList(p.projectList, p.child, scopes))
          case a: Aggregate => a
          case other => resolveOtherOperator(other)
        }
    }
    // The top operator has no parent to visit it; the pass's leave to transform, as for the rest.
    AnalysisHelper.allowInvokingTransformsInAnalyzer(aggregateIn(AggregateParent.Other)(resolved))
  }

  /**
   * A SELECT list (a Project's or an Aggregate's) and what the rule's cases ask of it, each found
   * at most once, and the cases' conditions. A star still unexpanded here would expand over the
   * aliases computed below the list (`SELECT true AS a, a AND b, * FROM t` would list `a` twice;
   * a ColumnHidingStar always waits one iteration): the list waits for Spark's ResolveReferences
   * to expand it over the FROM input. A star cannot expand before the WHERE resolves, and then
   * would expand over the aliases computed below the Filter: a WHERE naming the list's aliases is
   * resolved first, with their expressions in the Filter.
   */
  private final class SelectList(
      val items: Seq[NamedExpression],
      val input: LogicalPlan,
      scopes: => Set[LateralAliasScope]) {

    /** The WHERE directly below the list, with its names that mean aliases of the list
     *  ([[WhereAliases]]), when it has any and WHERE is a scope of the setting. */
    lazy val where: Option[(Filter, Map[UnresolvedAttribute, Int])] = input match {
      case f: Filter if scopes.contains(LateralAliasScope.Where) =>
        Some((f, WhereAliases.uses(session, conf.resolver, items, f))).filter(_._2.nonEmpty)
      case _ => None
    }

    lazy val hasStar: Boolean = items.exists(_.exists(_.isInstanceOf[Star]))
    lazy val hasCandidate: Boolean = items.exists(Candidates.hasCandidate)
    lazy val hasAggregateCall: Boolean = items.exists(CallKinds.hasAggregateCall(session, _))

    /** Whether SUBQUERY is a scope of the setting, and a subquery of the list is unresolved. */
    lazy val subqueriesMayRead: Boolean = scopes.contains(LateralAliasScope.Subquery) &&
      items.exists(SubqueryAliases.hasUnresolvedSubquery)

    /** The names in the list's subqueries that mean its aliases (SUBQUERY a scope). */
    lazy val subqueryUses: Map[Int, SubqueryAliases.Uses] = subqueryUsesOver(input)

    def subqueryUsesOver(input: LogicalPlan): Map[Int, SubqueryAliases.Uses] =
      if (!scopes.contains(LateralAliasScope.Subquery)) Map.empty
      else SubqueryAliases.uses(session, conf.resolver, items.toIndexedSeq, input)

    def readsWhereAliases: Boolean = where.nonEmpty
    def waitsForStar: Boolean = where.isEmpty && hasStar

    /** No WHERE naming its aliases, no star to wait for, and its input resolved. */
    def ready: Boolean = where.isEmpty && !hasStar && input.resolved

    /** A list with an aggregate and no GROUP BY is a global aggregate that Spark's
     *  GlobalAggregates turns into an Aggregate once the list resolves: treated as one now, or a
     *  per-group reference (`SELECT true AS y, CASE WHEN y THEN 5 ELSE count(s) END`) would be
     *  computed below it, outside any aggregate. */
    def isGlobalAggregate: Boolean = ready && hasCandidate && hasAggregateCall

    /** A projection's list whose items, or subqueries ([[SubqueryAliases]]), name its aliases. */
    def isProjectionReadingAliases: Boolean = ready &&
      (hasCandidate || (subqueriesMayRead && subqueryUses.nonEmpty)) && !hasAggregateCall

    /** An aggregate's list whose subqueries may name its aliases ([[AggregateSubqueries]]), once
     *  its own lateral aliases are resolved; HAVING needs its Aggregate directly below it. */
    def isAggregateWithSubqueries(parent: => AggregateParent): Boolean =
      ready && subqueriesMayRead && parent == AggregateParent.Other && !hasCandidate

    /** An aggregate's list whose items name its aliases ([[AggregateListRewrite]]). */
    def isAggregateReadingAliases: Boolean = ready && hasCandidate
  }

  private def resolveProject(p: Project, list: SelectList): LogicalPlan = p match {
    case _ if list.readsWhereAliases =>
      val (f, uses) = list.where.get
      if (list.hasStar || list.hasAggregateCall || WhereAliases.lacksMore(f.condition, uses)) {
        inlineWhereAliases(p, list.items, f, uses)
      } else {
        projection(p, Some((f, uses)), list.subqueryUsesOver(f.child)).getOrElse(p)
      }
    case _ if list.waitsForStar => p
    case _ if list.isGlobalAggregate =>
      aggregateList(Aggregate(Nil, p.projectList, p.child), AggregateParent.Other)
        .getOrElse(unmark(p))
    case _ if list.isProjectionReadingAliases =>
      projection(p, None, list.subqueryUses).getOrElse(unmark(p))
    case _ => unwrapLeftovers(p)
  }

  private def resolveAggregate(
      a: Aggregate,
      list: SelectList,
      parent: => AggregateParent): LogicalPlan = a match {
    case _ if list.readsWhereAliases =>
      val (f, uses) = list.where.get
      inlineWhereAliases(a, list.items, f, uses)
    case _ if list.waitsForStar => a
    case _ if list.isAggregateWithSubqueries(parent) =>
      val uses = list.subqueryUses
      val rewritten =
        if (uses.isEmpty) None else AggregateSubqueries(session, conf.resolver, a, uses)
      rewritten.getOrElse(unwrapLeftovers(a))
    case _ if list.isAggregateReadingAliases =>
      aggregateList(a, parent).getOrElse(unmark(a))
    case _ => unwrapLeftovers(a)
  }

  /** Another operator: its candidates, if any, are plain names again once its input is resolved
   *  (only a SELECT list's are resolved here). */
  private def resolveOtherOperator(operator: LogicalPlan): LogicalPlan =
    if (operator.childrenResolved && operator.expressions.exists(hasCandidate)) unmark(operator)
    else unwrapLeftovers(operator)

  /** An operator left to Spark: its native references made for naming alone are unwrapped. */
  private def unwrapLeftovers(operator: LogicalPlan): LogicalPlan =
    if (operator.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE)) unwrapNamedReferences(operator)
    else operator

  /** Native Spark's deepest lateral-alias chain: two analyzer iterations per level (49 at the
   *  default `spark.sql.analyzer.maxIterations`, 100). */
  private def nativeDepth: Int = (conf.analyzerMaxIterations - 2) / 2

  private def aggregateList: AggregateListRewrite =
    new AggregateListRewrite(session, conf, nativeDepth)

  private def projection: ProjectionRewrite = new ProjectionRewrite(session, conf, nativeDepth)

  /** An aggregate list's aliases in the WHERE below it (or a list with a star): computed per
   *  group, after the WHERE, so the Filter gets their expressions; a non-deterministic one cannot
   *  be shared so, and stays Spark's unresolved name. uses: the condition's names meaning
   *  aliases of `items`. */
  private def inlineWhereAliases(
      operator: LogicalPlan,
      items: Seq[NamedExpression],
      f: Filter,
      uses: Map[UnresolvedAttribute, Int]): LogicalPlan = {
    val binding = LateralAliasBinding(session, conf.resolver, items.toIndexedSeq, f.child)
    WhereAliases.checkPerRow(session, binding, uses)
    val inlined = uses.filterNot { case (_, j) =>
      binding.closure(Set(j)).exists(k =>
        binding.items(k).exists(isNondeterministicCall(session, _)))
    }
    if (inlined.isEmpty) operator
    else operator.withNewChildren(Seq(f.copy(condition =
      WhereAliases.rewrite(f.condition, inlined, WhereAliases.inline(binding)))))
  }
}
