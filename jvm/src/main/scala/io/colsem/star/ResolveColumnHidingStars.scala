package io.colsem.star

import org.apache.spark.sql.catalyst.analysis.UnresolvedAlias
import org.apache.spark.sql.catalyst.expressions.NamedExpression
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.catalyst.trees.TreePattern.{AGGREGATE, PROJECT}

/**
 * Resolution rule: once the input of a SELECT list holding a [[ColumnHidingStar]] is resolved,
 * works out which of the input's columns the star leaves out ([[HiddenColumns]]), so that Spark's
 * ResolveReferences expands the star without them in the next iteration. A `*` that
 * [[TableStatements]] added over `TABLE t` and hides nothing is taken away again.
 */
object ResolveColumnHidingStars extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    // Stars are wrapped only while the session hides columns; otherwise this is one flag check.
    if (!plan.containsAnyPattern(PROJECT, AGGREGATE) || StarExclusion.read(conf).isEmpty) plan
    else plan.resolveOperatorsUpWithPruning(_.containsAnyPattern(PROJECT, AGGREGATE)) {
      case p: Project if p.childrenResolved && p.projectList.exists(isPending) =>
        val decided = p.copy(projectList = decide(p.projectList, p.child))
        // The `*` of `TABLE t` / pipe `FROM t` (TableStatements) goes again where it hides
        // nothing: the analyzed plan is vanilla's.
        if (TableStatements.isAdded(p) && hidesNothing(decided.projectList)) p.child
        else markLeftOut(p, decided)
      case a: Aggregate if a.childrenResolved && a.aggregateExpressions.exists(isPending) =>
        markLeftOut(a, a.copy(aggregateExpressions = decide(a.aggregateExpressions, a.child)))
    }

  /** The names of the columns a star of this SELECT list left out, on its node: a check that sees
   *  the finished plan only (a format's own MERGE command) can tell that a `*` dropped them. A tag,
   *  as the expanded list no longer shows a star; set once, on the node this rule makes, and true
   *  of it for as long as it lives. */
  val LeftOut: TreeNodeTag[Seq[String]] = TreeNodeTag[Seq[String]]("colsem.star.leftOut")

  private def markLeftOut(original: LogicalPlan, plan: LogicalPlan): LogicalPlan = {
    // The analyzer copies tags only to a node that has none: keep the original's (a write's id).
    plan.copyTagsFrom(original)
    val hidden = plan.expressions.collect {
      case s: ColumnHidingStar => s
      case UnresolvedAlias(s: ColumnHidingStar, _) => s
    }.flatMap(_.hidden.getOrElse(Set.empty)).toSet
    val names = plan.children.flatMap(_.output).filter(a => hidden.contains(a.exprId)).map(_.name)
    if (names.nonEmpty) plan.setTagValue(LeftOut, names)
    plan
  }

  private def hidesNothing(items: Seq[NamedExpression]): Boolean = items.forall {
    case s: ColumnHidingStar => s.hidden.forall(_.isEmpty)
    case UnresolvedAlias(s: ColumnHidingStar, _) => s.hidden.forall(_.isEmpty)
    case _ => true
  }

  private def isPending(item: NamedExpression): Boolean = item match {
    case s: ColumnHidingStar => s.hidden.isEmpty
    case UnresolvedAlias(s: ColumnHidingStar, _) => s.hidden.isEmpty
    case _ => false
  }

  private def decide(items: Seq[NamedExpression], input: LogicalPlan): Seq[NamedExpression] = {
    val star = items.collectFirst {
      case s: ColumnHidingStar => s
      case UnresolvedAlias(s: ColumnHidingStar, _) => s
    }.get
    val ids = Some(HiddenColumns.hiddenIds(input, star.exclusion, conf.resolver, Some(star.origin)))
    items.map {
      case s: ColumnHidingStar if s.hidden.isEmpty => s.copy(hidden = ids)
      case u @ UnresolvedAlias(s: ColumnHidingStar, _) if s.hidden.isEmpty =>
        u.copy(child = s.copy(hidden = ids))
      case other => other
    }
  }
}
