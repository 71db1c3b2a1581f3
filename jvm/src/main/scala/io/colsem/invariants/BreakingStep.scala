package io.colsem.invariants

/**
 * Along a replay of rules, the last step that took a plan from keeping its schema to breaking it:
 * the one notion of "which rule broke it" the optimizer's and the physical replays share. A value:
 * each step gives the next state.
 */
private[invariants] final case class BreakingStep private (
    isBroken: Boolean,
    culprit: Option[String]) {

  /** The state after a step (named by `name`, asked only when the step breaks the plan) leaves the
   *  plan broken or not. */
  def after(name: => String, nowBroken: Boolean): BreakingStep =
    BreakingStep(nowBroken, if (nowBroken && !isBroken) Some(name) else culprit)

  /** The step that broke the plan, when it is broken at the end. */
  def result: Option[String] = if (isBroken) culprit else None
}

private[invariants] object BreakingStep {
  def start(broken: Boolean): BreakingStep = BreakingStep(broken, None)
}
