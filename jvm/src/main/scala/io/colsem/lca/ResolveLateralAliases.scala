package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Star, UnresolvedAlias, UnresolvedFunction, UnresolvedHaving}
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Expression, LateralColumnAliasReference, NamedExpression, SubqueryExpression, UnresolvedWindowExpression, WindowExpression}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, AggregateFunction}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.{LATERAL_COLUMN_ALIAS_REFERENCE, UNRESOLVED_ATTRIBUTE}

import io.colsem.{ColsemConf, FunctionKinds, LateralAliasCandidate}

/**
 * Resolution rule (last in each Resolution iteration): resolves the [[LateralAliasCandidate]]s of a
 * SELECT list whose input is resolved, all alias levels at once. The parts, each in its own file:
 *  - [[LateralAliasBinding]]: what each candidate means (the input's column, which wins; the one
 *    earlier alias of that name; or the plain name again for Spark) and the dependency levels;
 *  - [[AliasMaterialization]]: the used aliases computed once each, one Project per level below
 *    the list, and the [[Substitution]] by which the list reads them;
 *  - [[ChainFolding]]: in long lists, short plain chains folded into their users;
 *  - [[AggregateListRewrite]]: aggregate lists (per-row aliases below, per-group ones above).
 * A plain SELECT list:
 * {{{
 *   Project [a + 1 AS x, x * 2 AS y]               Project [x, y]
 *   +- Relation t [a, k]                    =>     +- Project [a, k, x, (x * 2) AS y]
 *      (x in the list: a candidate)                   +- Project [a, k, (a + 1) AS x]
 *                                                        +- Relation t [a, k]
 * }}}
 * Whatever this rule cannot rewrite (a level that does not resolve on its own) gets its plain
 * names back, and Spark's native support applies.
 */
class ResolveLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {
  import ResolveLateralAliases._

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (!plan.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) return plan
    // Aggregates a HAVING sits on: Spark needs them to stay directly below it.
    val havingInputs = plan.collect { case UnresolvedHaving(_, a: Aggregate) => a }
    val aggregateList = new AggregateListRewrite(session, conf, nativeDepth)
    plan.resolveOperatorsUpWithPruning(
        _.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) {
      // A star still unexpanded here would expand over the aliases computed below the list
      // (`SELECT true AS a, a AND b, * FROM t` would list `a` twice; a ColumnHidingStar always
      // waits one iteration): wait for Spark's ResolveReferences to expand it over the FROM input.
      case p: Project if hasStar(p.projectList) => p
      case a: Aggregate if hasStar(a.aggregateExpressions) => a
      // A SELECT list with an aggregate and no GROUP BY is a global aggregate that Spark's
      // GlobalAggregates turns into an Aggregate once the list resolves: treat it as one now, or a
      // per-group reference (`SELECT true AS y, CASE WHEN y THEN 5 ELSE count(s) END`) would be
      // computed below it, outside any aggregate.
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) &&
          projectList.exists(hasAggregateCall(session, _, inWindow = false)) =>
        aggregateList(Aggregate(Nil, projectList, child), underHaving = false).getOrElse(unmark(p))
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) =>
        rewriteProject(p).getOrElse(unmark(p))
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

  /** A SELECT list: the aliases its items use computed below it, the list on top reading them;
   *  None when a level does not resolve on its own (the native path then gets the plain names). */
  private def rewriteProject(p: Project): Option[LogicalPlan] = {
    val binding = LateralAliasBinding(session, conf.resolver, p.projectList.toIndexedSeq, p.child)
    new AliasMaterialization(session, conf.resolver).materialize(binding, p.child, binding.used,
        copies = false, nativeDepth, ColsemConf.LateralAliasMaxDepth.readFrom(conf)).map {
      case (below, substitution) =>
        val top = binding.items.indices.map { i =>
          substitution.computed.get(i).map(substitution.output(i, _)).getOrElse(binding.items(i) match {
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
  /** Prefix of the names aliases are computed under below their SELECT list. */
  val PrivatePrefix = "__colsem_lca_"

  /** `plan`'s output without the columns computed for lateral aliases: the columns a name in the
   *  SELECT list above it may mean, and so the ones an error may suggest. */
  def visibleOutput(plan: LogicalPlan): Seq[Attribute] = plan.output.filterNot(_.name.startsWith(PrivatePrefix))

  /** Marks the native LateralColumnAliasReference nodes colsem puts into unaliased items only so
   *  that Spark names those items exactly as its native support would. */
  val NamingOnly: TreeNodeTag[Unit] = TreeNodeTag[Unit]("colsem.lateralAlias.namingOnly")

  /** Once an item has its name, its naming-only references become the attributes they wrap. */
  def unwrapNamedReferences(plan: LogicalPlan): LogicalPlan = plan.mapExpressions { e =>
    if (e.exists(_.isInstanceOf[UnresolvedAlias])) e
    else e.transformWithPruning(_.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE)) {
      case r: LateralColumnAliasReference if r.getTagValue(NamingOnly).isDefined => r.ne match {
        case a: Alias => a.child
        case other => other
      }
    }
  }

  private def hasStar(list: Seq[Expression]): Boolean = list.exists(_.exists(_.isInstanceOf[Star]))

  private def hasCandidate(e: Expression): Boolean =
    e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(_.isInstanceOf[LateralAliasCandidate])

  /** `plan` with every candidate its plain name again, for Spark's native support. */
  private def unmark(plan: LogicalPlan): LogicalPlan = plan.mapExpressions(unmarkExpression)

  private[lca] def unmarkExpression(e: Expression): Expression = e.transform {
    case UnresolvedAlias(c: LateralAliasCandidate, None) => c.attribute
    case c: LateralAliasCandidate => c.attribute
  }

  private[lca] def isWindow(e: Expression): Boolean =
    e.isInstanceOf[UnresolvedWindowExpression] || e.isInstanceOf[WindowExpression]

  /** Whether an aggregate function is called outside any window function. */
  private def hasAggregateCall(session: SparkSession, e: Expression, inWindow: Boolean): Boolean = e match {
    case w if isWindow(w) => w.children.exists(hasAggregateCall(session, _, inWindow = true))
    case f if !inWindow && isAggregateCall(session, f) => true
    case _: SubqueryExpression => false
    case other => other.children.exists(hasAggregateCall(session, _, inWindow))
  }

  /** Whether a (possibly still unresolved) call is to an aggregate function. */
  private[lca] def isAggregateCall(session: SparkSession, e: Expression): Boolean = e match {
    case _: AggregateExpression | _: AggregateFunction => true
    case u: UnresolvedFunction => FunctionKinds.implementedBy(session, u, classOf[AggregateFunction])
    case _ => false
  }
}
