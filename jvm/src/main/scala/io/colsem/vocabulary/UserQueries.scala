package io.colsem.vocabulary

import org.apache.spark.sql.catalyst.analysis.AnalysisContext
import org.apache.spark.sql.catalyst.plans.logical.{DeserializeToObject, LogicalPlan}
import org.apache.spark.sql.catalyst.trees.CurrentOrigin
import org.apache.spark.sql.execution.command.{ResetCommand, SetCommand}

/** Which analyzed plans colsem's rules and checks may change or fail: a user's, not SET/RESET;
 *  and which part of a statement the analyzer is resolving. */
object UserQueries {

  /** SET and RESET are how a bad value gets fixed, so no colsem check may fail them. */
  def changesConf(plan: LogicalPlan): Boolean = plan match {
    case _: SetCommand | _: ResetCommand => true
    case _ => false
  }

  /**
   * A plan a user submitted, as opposed to one Spark analyzes for itself: collecting a Dataset
   * on the JVM (what the Thrift server and Scala code do) analyzes and checks the encoder's
   * `DeserializeToObject` over the result, also right after the SET that stored a bad value.
   * colsem's checks fail user queries only.
   */
  def isUserQuery(plan: LogicalPlan): Boolean = plan match {
    case _: DeserializeToObject => false
    case other => !changesConf(other)
  }

  /** The analysis of a subquery, whose names may be outer references, is under way. */
  def resolvingSubquery: Boolean = AnalysisContext.get.outerPlan.isDefined

  /** The plan whose input a subquery under analysis may reach with outer references. */
  def outerScope: Option[LogicalPlan] = AnalysisContext.get.outerPlan

  /** The analysis of a view's stored query (read by a statement) is under way, not of a subquery
   *  in it; on Spark 3.5, where colsem's first rules run in the parser, its parsing (under the
   *  origin Spark gives a view's text). */
  def resolvingViewQuery: Boolean =
    (AnalysisContext.get.nestedViewDepth > 0 && !resolvingSubquery) ||
      CurrentOrigin.get.objectType.contains("VIEW")
}
