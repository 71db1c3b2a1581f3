package io.colsem.lca

import org.apache.spark.sql.catalyst.analysis.UnresolvedHaving
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, LogicalPlan}

/** What an aggregate SELECT list's Aggregate sits under, as far as its plan shape matters. */
private[lca] sealed trait AggregateParent

private[lca] object AggregateParent {

  /** A HAVING, which Spark resolves only with its Aggregate directly below it: nothing may be put
   *  between the two. */
  case object Having extends AggregateParent

  /** Anything else. */
  case object Other extends AggregateParent

  /** What an Aggregate child of `operator` sits under, by `operator`'s shape alone. */
  def of(operator: LogicalPlan): AggregateParent = operator match {
    case UnresolvedHaving(_, _: Aggregate) => Having
    case _ => Other
  }
}
