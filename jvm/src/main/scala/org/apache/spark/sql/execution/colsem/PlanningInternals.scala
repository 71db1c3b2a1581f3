package org.apache.spark.sql.execution.colsem

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{QueryExecution, SparkPlan, SparkStrategy}
import org.apache.spark.sql.execution.command.ExplainCommand
import org.apache.spark.sql.execution.colsem.ClassicSessions.asClassic

/**
 * The parts of Spark's planning machinery the schema-invariant checks read: the rule lists to
 * replay when a check fails (to name the rule that broke it); which query is running is
 * [[RunningQuery]]'s part. Several are `private[spark]`/`private[sql]` or Scala-`protected` (public
 * in bytecode), hence this package (under sql.execution) and the reflective calls;
 * tests/test_spark_internals.py (in every line's smoke suite) fails on a Spark line that moves
 * them.
 */
object PlanningInternals {

  /** Whether the SQL execution running on this thread is an EXPLAIN: the plans it makes describe a
   *  query that never runs. */
  def explaining(session: SparkSession): Boolean =
    RunningExecution.plan(session).exists(_.isInstanceOf[ExplainCommand])

  /** The optimizer's batches as (batch name, max iterations, rules). `batches` is protected in
   *  Scala and public in bytecode. */
  def optimizerBatches(session: SparkSession): Seq[(String, Int, Seq[Rule[LogicalPlan]])] = {
    val optimizer = asClassic(session).sessionState.optimizer
    val batches =
      optimizer.getClass.getMethod("batches").invoke(optimizer).asInstanceOf[Seq[AnyRef]]
    batches.map { batch =>
      def field(name: String): AnyRef = batch.getClass.getMethod(name).invoke(batch)
      val strategy = field("strategy")
      val maxIterations = strategy.getClass.getMethod("maxIterations").invoke(strategy)
        .asInstanceOf[Int]
      (
        field("name").asInstanceOf[String],
        maxIterations,
        field("rules").asInstanceOf[Seq[Rule[LogicalPlan]]])
    }
  }

  /** The classes of the optimizer rules extensions injected (and
   *  `experimental.extraOptimizations`); every other rule in [[optimizerBatches]] is Spark's
   *  own. */
  def extensionOptimizerRuleClasses(session: SparkSession): Set[Class[_]] = {
    val classic = asClassic(session)
    (classic.extensions.buildOptimizerRules(classic) ++ classic.extensions.buildPreCBORules(
      classic) ++
      classic.experimental.extraOptimizations).map(_.getClass).toSet
  }

  def plannerStrategies(session: SparkSession): Seq[SparkStrategy] =
    asClassic(session).sessionState.planner.strategies

  /** Plans an optimized plan the way QueryExecution does. */
  def plan(session: SparkSession, optimized: LogicalPlan): SparkPlan =
    SparkPlanning.createSparkPlan(asClassic(session), optimized)

  /** The physical rules a prepared plan has been through, in order, as (name, rule): under adaptive
   *  execution the post-planner and query-stage preparation rules of extensions around Spark's
   *  preparations (AQE's own preparation list is private; its rules are mostly the same). */
  def physicalRules(session: SparkSession, adaptive: Boolean): Seq[(String, Rule[SparkPlan])] = {
    val state = asClassic(session).sessionState
    val preparations = QueryExecution.preparations(asClassic(session), None, subquery = false)
    val rules = if (adaptive) {
      state.adaptiveRulesHolder.queryPostPlannerStrategyRules ++ preparations ++
        state.adaptiveRulesHolder.queryStagePrepRules
    } else {
      preparations
    }
    rules.map(r => s"physical rule ${r.ruleName}" -> r)
  }

  /** The physical rules extensions injected, in the order they run. */
  def extensionPhysicalRules(
      session: SparkSession,
      adaptive: Boolean): Seq[(String, Rule[SparkPlan])] = {
    val holder = asClassic(session).sessionState.adaptiveRulesHolder
    def named(rules: Seq[Rule[SparkPlan]]) = rules.map(r => s"physical rule ${r.ruleName}" -> r)
    if (adaptive) {
      named(holder.queryPostPlannerStrategyRules) ++ named(holder.queryStagePrepRules)
    } else {
      columnarRules(session)
    }
  }

  /** Each columnar rule's two halves, named, for naming the one that broke a plan. */
  def columnarRules(session: SparkSession): Seq[(String, Rule[SparkPlan])] =
    asClassic(session).sessionState.columnarRules.flatMap { c =>
      val name = c.getClass.getName.stripSuffix("$")
      Seq(
        s"columnar rule $name (preColumnarTransitions)" -> c.preColumnarTransitions,
        s"columnar rule $name (postColumnarTransitions)" -> c.postColumnarTransitions)
    }
}
