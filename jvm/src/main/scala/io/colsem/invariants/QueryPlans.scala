package io.colsem.invariants

import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec

/** Which physical plans are the query's own: the prepared-schema check and the output check look
 *  at those only. */
object QueryPlans {

  /** The query's own plan has a node planned from a node of its optimized plan; a subquery's or
   *  an adaptive re-plan's nodes link to other logical plans. */
  def isOwn(plan: SparkPlan, record: QueryRecord): Boolean = {
    val planned = plan match {
      case adaptive: AdaptiveSparkPlanExec => adaptive.inputPlan
      case other => other
    }
    planned.find(_.logicalLink.isDefined).flatMap(_.logicalLink).exists(record.isOptimizedNode)
  }
}
