package io.colsem.invariants

import scala.util.control.NonFatal

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.colsem.PlanningInternals
import org.apache.spark.sql.execution.{
  ApplyColumnarRulesAndInsertTransitions, ColumnarRule, ProjectExec, SparkPlan
}

/**
 * Invariants 3 and 6, on the prepared physical plan (after planning and the preparation rules):
 * its output must be the analyzed output with relations stripped (names, types, nullability that
 * may only tighten). Checked once per query, on the query's own plan (not its subqueries'), from
 * a query-stage preparation rule under adaptive execution and the post-transition half of a
 * columnar rule otherwise. Which other extensions' physical rules it sees depends on where colsem
 * sits among them: docs/invariants.md, "Beside other extensions".
 *
 * On a violation, the plan is planned again from the optimized plan: if the planner's own output
 * already differs, it is invariant 3 and the strategy that planned the first wrong node is named;
 * otherwise the physical rules are replayed in order to name the one that changed it (invariant 6
 * when it broke the planner's schema: exactly for a ProjectExec root, as a set otherwise).
 */
object CheckPreparedSchema {

  def check(session: SparkSession, plan: SparkPlan, adaptive: Boolean): Unit = {
    val conf = session.sessionState.conf
    if (Invariants.mode(conf) == Invariants.Off) return
    for {
      record <- Invariants.record(session)
      _ = record.rethrowFailure()
      analyzed <- record.analyzedPlan
      optimized <- record.optimizedPlan
      if !record.hasReported && QueryPlans.isOwn(plan, record) && record.claimPhysicalCheck()
    } {
      val expected = expectedSchema(analyzed, optimized)
      val caseSensitive = conf.caseSensitiveAnalysis
      Schemas.exactProblem(expected, Schemas.physical(plan.output), caseSensitive).foreach {
        found =>
          Invariants.report(
            conf,
            Some(record),
            blame(session, expected, optimized, plan, adaptive)
              .getOrElse(Violation.schemaChanged(
                3,
                "planning or physical preparation (not " +
                  "reproduced by planning again)",
                found,
                Schemas.diff("analyzed", expected, "prepared", Schemas.physical(plan.output)))))
      }
    }
  }

  /** The analyzed schema, with the fields optimization made nullable nullable: invariant 5 has
   *  accepted the optimized schema by the time a plan is prepared (or reported it, and these checks
   *  are skipped). */
  private def expectedSchema(analyzed: LogicalPlan, optimized: LogicalPlan): Seq[PhysicalField] =
    Schemas.loosenedBy(Schemas.physical(analyzed.output), Schemas.physical(optimized.output))

  private def blame(
      session: SparkSession,
      expected: Seq[PhysicalField],
      optimized: LogicalPlan,
      prepared: SparkPlan,
      adaptive: Boolean): Option[Violation] =
    try {
      val caseSensitive = session.sessionState.conf.caseSensitiveAnalysis
      val planned = PlanningInternals.plan(session, optimized.clone())
      Schemas.exactProblem(expected, Schemas.physical(planned.output), caseSensitive) match {
        case Some(found) =>
          Some(Violation.schemaChanged(
            3,
            culpritStrategy(session, planned),
            found,
            Schemas.diff("analyzed", expected, "planned", Schemas.physical(planned.output))))
        case None =>
          val before = Schemas.physical(planned.output)
          def physicalProblem(p: SparkPlan): Option[String] = {
            val after = Schemas.physical(p.output)
            if (planned.isInstanceOf[ProjectExec])
              Schemas.exactProblem(before, after, caseSensitive)
            else Schemas.setProblem(before, after, caseSensitive)
          }
          // Extensions' rules first, on their own (the likelier culprits, and under adaptive
          // execution Spark's own preparation list is not the one AQE ran), then Spark's too.
          val candidates = Seq(
            PlanningInternals.extensionPhysicalRules(session, adaptive),
            PlanningInternals.physicalRules(session, adaptive))
          val checks: Seq[SparkPlan => Boolean] = Seq(
            physicalProblem(_).isDefined,
            p =>
              Schemas.exactProblem(expected, Schemas.physical(p.output), caseSensitive).isDefined)
          val culprit = checks.iterator.flatMap(broken =>
            candidates.iterator.flatMap(rules =>
              replay(session, planned, rules, broken))).take(1).toList.headOption
            .getOrElse("a physical preparation rule (not reproduced by replaying them)")
          val after = Schemas.physical(prepared.output)
          Some(physicalProblem(prepared) match {
            case Some(found) => Violation.schemaChanged(
                6,
                culprit,
                found,
                Schemas.diff("planned", before, "prepared", after))
            case None => Violation.schemaChanged(
                3,
                culprit,
                Schemas.exactProblem(expected, after, caseSensitive).getOrElse(
                  "the schema changed"),
                Schemas.diff("analyzed", expected, "prepared", after))
          })
      }
    } catch {
      case NonFatal(_) => None
    }

  /** The last rule that took the plan from keeping the schema to breaking it; a columnar pass is
   *  narrowed down to the columnar rule that did it. */
  private def replay(
      session: SparkSession,
      start: SparkPlan,
      rules: Seq[(String, Rule[SparkPlan])],
      broken: SparkPlan => Boolean): Option[String] = {
    val (_, state) = rules.foldLeft((start, BreakingStep.start(broken(start)))) {
      case ((plan, state), (name, rule)) =>
        val next = rule(plan)
        def named = if (rule.isInstanceOf[ApplyColumnarRulesAndInsertTransitions]) {
          replay(session, plan, PlanningInternals.columnarRules(session), broken).getOrElse(name)
        } else {
          name
        }
        (next, state.after(named, broken(next)))
    }
    state.result
  }

  /** The strategy that planned the lowest node whose output differs from its logical node's. */
  private def culpritStrategy(session: SparkSession, planned: SparkPlan): String = {
    def planRoot(n: SparkPlan, parent: Option[SparkPlan]): Boolean =
      n.logicalLink.isDefined && !parent.exists(p =>
        p.logicalLink.exists(l => n.logicalLink.exists(_ eq l)))
    def wrong(n: SparkPlan): Boolean = n.logicalLink.exists { l =>
      Schemas.exactProblem(Schemas.physical(l.output), Schemas.physical(n.output)).isDefined
    }
    val candidates = scala.collection.mutable.ArrayBuffer[SparkPlan]()
    def walk(n: SparkPlan, parent: Option[SparkPlan]): Unit = {
      if (planRoot(n, parent) && wrong(n)) candidates += n
      n.children.foreach(walk(_, Some(n)))
    }
    walk(planned, None)
    candidates.lastOption.flatMap { node =>
      val logical = node.logicalLink.get
      PlanningInternals.plannerStrategies(session).find(s =>
        try s(logical).nonEmpty
        catch { case NonFatal(_) => false }).map { s =>
        s"planner strategy ${s.getClass.getName.stripSuffix("$")} " +
          s"(it planned ${logical.nodeName} as ${node.nodeName})"
      }
    }.getOrElse("planning (SparkPlanner strategies)")
  }
}

/** Runs the check among the query-stage preparation rules (adaptive execution), after Spark's own
 *  and those of the extensions listed before colsem. */
class CheckPreparedSchemaAdaptive(session: SparkSession) extends Rule[SparkPlan] {
  override def apply(plan: SparkPlan): SparkPlan = {
    CheckPreparedSchema.check(session, plan, adaptive = true)
    plan
  }
}

/** Runs the check after the columnar transitions of Spark's preparations (non-adaptive plans). */
class CheckPreparedSchemaColumnar(session: SparkSession) extends ColumnarRule {
  override def postColumnarTransitions: Rule[SparkPlan] = new Rule[SparkPlan] {
    override def apply(plan: SparkPlan): SparkPlan = {
      CheckPreparedSchema.check(session, plan, adaptive = false)
      plan
    }
  }
}
