package io.colsem.lca

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{UnresolvedAttribute, UnresolvedFunction}
import org.apache.spark.sql.catalyst.expressions.{Alias, Expression, Generator, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.trees.TreePattern.UNRESOLVED_ATTRIBUTE

import io.colsem.errors.ColsemErrors
import io.colsem.shims.SparkShims
import io.colsem.vocabulary.{FunctionKinds, UserQueries}

/**
 * Post-hoc rule that never changes a plan: a name in a SELECT list that only a later item (or
 * the item itself) defines as an alias fails with Spark's usual UNRESOLVED_COLUMN error plus a
 * hint naming that alias and where it is. Raised only when nothing else can still resolve the name:
 * the list's input is resolved and has no such column (nor metadata column), no session variable
 * has that name, and this is not a subquery (whose names may be outer references).
 */
class ReportForwardLateralAliases(session: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    if (plan.containsPattern(UNRESOLVED_ATTRIBUTE) && LateralAliasConf.enabled(conf) &&
        !UserQueries.resolvingSubquery) {
      UnresolvedOperators.foreachUp(plan) {
        case p @ Project(items, child) if child.resolved => check(p, items, child)
        case a: Aggregate if a.child.resolved => check(a, a.aggregateExpressions, a.child)
        case _ =>
      }
    }
    plan
  }

  private def check(operator: LogicalPlan, list: Seq[NamedExpression], input: LogicalPlan): Unit =
    if (list.exists(_.containsPattern(UNRESOLVED_ATTRIBUTE))) checkNames(operator, list, input)

  private def checkNames(
      operator: LogicalPlan,
      list: Seq[NamedExpression],
      input: LogicalPlan): Unit = {
    val resolver = conf.resolver
    // Indexed: items(i) on a List would make this walk quadratic in the list's length.
    val items = list.toIndexedSeq
    // By name, so that each name looks at its own aliases only, not the whole list (quadratic).
    lazy val aliases = AliasNames(items)
    def aliasesNamed(name: String, range: Range): Option[Int] =
      aliases.named(resolver, name, range).headOption
    // Spark's ExtractGenerator puts a generator below the list, so its alias is a column every
    // item can read, an earlier one too (`SELECT col + 1 AS col2, explode(arr) AS col`).
    lazy val generatorAliases = items.collect { case a @ Alias(g, _) if isGenerator(g) => a.name }
    items.indices.filter(items(_).containsPattern(UNRESOLVED_ATTRIBUTE)).foreach { i =>
      items(i).foreach {
        case u: UnresolvedAttribute if u.nameParts.size == 1 =>
          val name = u.nameParts.head
          aliasesNamed(name, i until items.size).foreach { later =>
            val unresolvable = aliasesNamed(name, 0 until i).isEmpty &&
              input.resolve(u.nameParts, resolver).isEmpty &&
              !generatorAliases.exists(resolver(_, name)) &&
              !FunctionKinds.isLiteralFunction(session, name) &&
              !input.metadataOutput.exists(a => resolver(a.name, name)) &&
              !SparkShims.isSessionVariable(session, name)
            if (unresolvable) {
              // Suggest only the list's real input, not the columns computed for its aliases.
              val visible = ComputedAliases.visibleOutput(input)
              val shown = if (visible.size == input.output.size) operator
              else operator.withNewChildren(Seq(Project(visible, input)))
              throw ColsemErrors.forwardLateralAlias(
                SparkShims.unresolvedColumnError(shown, u),
                name,
                u.origin,
                items(later).origin,
                selfReference = later == i)
            }
          }
        case _ =>
      }
    }
  }

  private def isGenerator(e: Expression): Boolean = e match {
    case _: Generator => true
    case u: UnresolvedFunction => FunctionKinds.isGenerator(session, u)
    case _ => false
  }
}
