package io.colsem.invariants

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.colsem.vocabulary.UserQueries

/**
 * Check rule, on every analyzed plan: invariants 1 (no qualifier in an output name) and 2 (unique
 * (relation, name) pairs). Also records the analyzed plan for the later phases' checks, which
 * compare their schemas against it. Does nothing when spark.colsem.invariants is off.
 */
class CheckAnalyzedSchema(session: SparkSession) extends (LogicalPlan => Unit) {

  override def apply(plan: LogicalPlan): Unit = {
    val conf = session.sessionState.conf
    if (!UserQueries.changesConf(plan) && Invariants.mode(conf) != Invariants.Off) {
      val record = Invariants.registerAnalyzed(session, plan)
      QualifierLeak.find(plan).foreach(Invariants.report(conf, record, _))
      DuplicateQualifiedFields.find(plan, conf.caseSensitiveAnalysis)
        .foreach(Invariants.report(conf, record, _))
    }
  }
}
