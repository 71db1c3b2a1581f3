package io.colsem.lca

import scala.util.control.NonFatal

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.analysis.{Resolver, UnresolvedAttribute}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.colsem.shims.SparkShims
import io.colsem.vocabulary.{FunctionKinds, UserQueries}

/**
 * Whether vanilla Spark gives a name no meaning at all, so that it would fail with
 * UNRESOLVED_COLUMN: no column (nor metadata column) of the plans in scope, no column of the
 * enclosing query's input (an outer reference), no parameterless function (`current_user`), no
 * session variable. Only such a name may mean a select-list alias outside its own list (in WHERE,
 * or inside a subquery of the list): every meaning Spark gives a name comes first.
 */
private[lca] object UnresolvableNames {

  def apply(
      session: SparkSession,
      resolver: Resolver,
      u: UnresolvedAttribute,
      scopes: Seq[LogicalPlan]): Boolean = {
    val outer = UserQueries.outerScope.toSeq.flatMap(_.children)
    val name = u.nameParts.head
    !(scopes ++ outer).exists(resolves(_, u, resolver)) &&
    !(u.nameParts.size == 1 && FunctionKinds.isLiteralFunction(session, name)) &&
    !SparkShims.isSessionVariable(session, name)
  }

  /** Whether `plan` gives the name a meaning; an error (an ambiguous name, an unresolved plan's
   *  output) counts as one, so that Spark reports it as it would. */
  private def resolves(plan: LogicalPlan, u: UnresolvedAttribute, resolver: Resolver): Boolean =
    try {
      plan.resolve(u.nameParts, resolver).isDefined ||
      plan.metadataOutput.exists(a => resolver(a.name, u.nameParts.head))
    } catch {
      case NonFatal(_) => true
    }
}
