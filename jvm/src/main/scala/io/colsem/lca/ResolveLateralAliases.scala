package io.colsem.lca

import scala.collection.mutable

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, Expression, ExtractValue, LateralColumnAliasReference, Literal, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LocalRelation, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.{LATERAL_COLUMN_ALIAS_REFERENCE, UNRESOLVED_ATTRIBUTE}

import io.colsem.{ColsemConf, ColsemErrors}

/**
 * Resolution rule (last in each Resolution iteration): resolves the [[LateralAliasCandidate]]s of a
 * SELECT list whose input is resolved, all alias levels at once.
 *
 * Each candidate becomes, in priority order, the FROM input's column of that name, the one earlier
 * alias of that name (two of them: ambiguity error), or the plain unresolved name again (Spark then
 * resolves it as an outer reference or reports it). Aliases that later items use are computed once,
 * in a chain of Projects below the SELECT list, one Project per dependency level; each level is
 * resolved immediately (a small analyzer run over its inputs), so a chain of N aliases needs no N
 * analyzer iterations and no alias expression is ever copied. Lists this rule does not handle yet
 * (aggregates) get their plain names back, and Spark's native lateral-alias support applies.
 */
object ResolveLateralAliases {
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
}

class ResolveLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    plan.resolveOperatorsUpWithPruning(
        _.containsAnyPattern(UNRESOLVED_ATTRIBUTE, LATERAL_COLUMN_ALIAS_REFERENCE)) {
      case p @ Project(projectList, child) if child.resolved && projectList.exists(hasCandidate) =>
        rewrite(p).getOrElse(unmark(p))
      case other if other.childrenResolved && other.expressions.exists(hasCandidate) =>
        unmark(other)
      case other if other.containsPattern(LATERAL_COLUMN_ALIAS_REFERENCE) =>
        ResolveLateralAliases.unwrapNamedReferences(other)
    }

  private def hasCandidate(e: Expression): Boolean =
    e.containsPattern(UNRESOLVED_ATTRIBUTE) && e.exists(_.isInstanceOf[LateralAliasCandidate])

  private def unmark(plan: LogicalPlan): LogicalPlan = plan.transformExpressions {
    case UnresolvedAlias(c: LateralAliasCandidate, None) => c.attribute
    case c: LateralAliasCandidate => c.attribute
  }

  /** The rewritten Project chain, or None when a level does not resolve on its own. */
  private def rewrite(p: Project): Option[LogicalPlan] = {
    val items = p.projectList.toIndexedSeq
    val resolver = conf.resolver
    // 1. What each candidate is, and which earlier items each item depends on.
    val dependsOn = Array.fill(items.size)(mutable.LinkedHashSet.empty[Int])
    // Keyed by item too: which earlier aliases a name can mean depends on the item's position.
    val meaning = mutable.HashMap.empty[(Int, LateralAliasCandidate), Either[Expression, Int]]
    items.indices.foreach { i =>
      items(i).foreach {
        case c: LateralAliasCandidate if !meaning.contains((i, c)) =>
          p.child.resolve(c.nameParts, resolver) match {
            case Some(column) => meaning((i, c)) = Left(column)
            case None =>
              val earlier = (0 until i).filter(j => items(j) match {
                case a: Alias => resolver(a.name, c.nameParts.head)
                case _ => false
              })
              earlier match {
                case Seq(j) =>
                  meaning((i, c)) = Right(j)
                  dependsOn(i) += j
                case Seq() => meaning((i, c)) = Left(c.attribute)
                case many => throw ColsemErrors.ambiguousLateralAlias(
                  c.nameParts.head, many.map(items(_).origin), c.attribute.origin)
              }
          }
        case _ =>
      }
    }
    // 2. Levels: an alias is computed one level above the highest alias it uses.
    val used = dependsOn.flatten.toSet
    val level = Array.fill(items.size)(0)
    items.indices.foreach { i => if (dependsOn(i).nonEmpty) level(i) = dependsOn(i).map(level).max + 1 }
    // 3. One Project per level of used aliases, each resolved at once.
    val computed = mutable.HashMap.empty[Int, Attribute]
    // A lateral alias reference as Spark's native support would have resolved it: the alias's
    // attribute under the name as written, or the named struct field of it.
    def reference(c: LateralAliasCandidate, j: Int): NamedExpression = {
      val base = computed(j).withName(c.nameParts.head)
      if (c.nameParts.size == 1) base
      else Alias(c.nameParts.tail.foldLeft(base: Expression)((b, f) =>
        ExtractValue(b, Literal(f), resolver)), c.nameParts.last)()
    }
    // forNaming: the item has no alias; Spark will name it from its text with native lateral
    // alias references in it, so those are put there, and unwrapped once it has its name.
    def substitute(i: Int, e: Expression, forNaming: Boolean = false): Expression = e.transformUp {
      case c: LateralAliasCandidate => meaning((i, c)) match {
        case Left(expr) => expr
        case Right(j) if forNaming =>
          val ref = LateralColumnAliasReference(reference(c, j), c.nameParts, computed(j))
          ref.setTagValue(ResolveLateralAliases.NamingOnly, ())
          ref
        case Right(j) => reference(c, j) match {
          case a: Alias => a.child
          case attr => attr
        }
      }
    }
    var below: LogicalPlan = p.child
    val levels = used.toSeq.groupBy(level).toSeq.sortBy(_._1)
    val maxDepth = ColsemConf.LateralAliasMaxDepth.readFrom(conf)
    if (levels.size > maxDepth) {
      val deepest = items.indices.maxBy(level)
      throw ColsemErrors.lateralAliasTooDeep(levels.size, maxDepth, items(deepest).origin)
    }
    val complete = levels.forall { case (_, indices) =>
      val ordered = indices.sorted
      val pending = ordered.map(i => substitute(i, items(i)).asInstanceOf[NamedExpression])
      resolveLevel(pending, below.output) match {
        case Some(resolved) =>
          ordered.zip(resolved).foreach { case (i, r) => computed(i) = r.toAttribute }
          below = Project(below.output ++ resolved, below)
          true
        case None => false
      }
    }
    if (!complete) return None
    // 4. The SELECT list itself: used aliases as attributes, the rest computed here.
    val top = items.indices.map { i =>
      computed.getOrElse(i, items(i) match {
        case UnresolvedAlias(c: LateralAliasCandidate, None) => meaning((i, c)) match {
          case Right(j) => reference(c, j)
          case Left(expr) => UnresolvedAlias(expr)
        }
        case u @ UnresolvedAlias(_, None) => substitute(i, u, forNaming = true).asInstanceOf[NamedExpression]
        case item => substitute(i, item).asInstanceOf[NamedExpression]
      })
    }
    Some(Project(top, below))
  }

  /** Resolves one level's items over its inputs with the session's analyzer; None unless every
   *  item comes out resolved and the plan keeps its shape (a window function, for example, does
   *  not: the native path handles those lists for now). */
  private def resolveLevel(items: Seq[NamedExpression], inputs: Seq[Attribute]): Option[Seq[NamedExpression]] = {
    val relation = LocalRelation(inputs)
    session.sessionState.analyzer.execute(Project(items, relation)) match {
      case Project(resolved, r: LocalRelation) if (r eq relation) && resolved.size == items.size &&
          resolved.forall(_.resolved) =>
        Some(resolved)
      case _ => None
    }
  }
}
