package com.example.broken

import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, AttributeReference, KnownNullable, NamedExpression, UnsafeProjection
}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.{
  ColumnarRule, ProjectExec, SparkPlan, SparkStrategy, UnaryExecNode
}

/**
 * Deliberately broken rules for the schema-invariant tests. Each does nothing unless its own conf
 * key (spark.broken.*) is set, so one session can hold them all and switch one on at a time.
 */
class BrokenRules extends (SparkSessionExtensions => Unit) {
  override def apply(e: SparkSessionExtensions): Unit = {
    e.injectPostHocResolutionRule(s => QualifyOutputNames(s))
    e.injectOptimizerRule(s => DropColumn(s))
    e.injectOptimizerRule(s => RenameColumn(s))
    e.injectOptimizerRule(s => ReorderProjection(s))
    e.injectOptimizerRule(s => WidenNullability(s))
    e.injectPlannerStrategy(s => RenamingProjectStrategy(s))
    e.injectPlannerStrategy(s => LyingProjectStrategy(s))
    e.injectQueryStagePrepRule(s => DropPhysicalColumn(s))
    e.injectColumnar(s => ReorderPhysicalProjection(s))
  }
}

object Broken {
  def setting(s: SparkSession, key: String): Option[String] =
    Option(s.conf.get(s"spark.broken.$key", null)).filter(_.nonEmpty)
}

/** Invariant 1: names each qualified root column `relation.column`. */
case class QualifyOutputNames(s: SparkSession) extends Rule[LogicalPlan] {
  def apply(plan: LogicalPlan): LogicalPlan = plan match {
    case p @ Project(list, _)
        if Broken.setting(s, "qualifyNames").isDefined &&
          list.exists(a =>
            a.isInstanceOf[AttributeReference] && a.qualifier.nonEmpty && !a.name.contains(".")) =>
      p.copy(projectList = list.map {
        case a: AttributeReference if a.qualifier.nonEmpty =>
          a.withName(a.qualifier.last + "." + a.name)
        case other => other
      })
    case other => other
  }
}

case class DropColumn(s: SparkSession) extends Rule[LogicalPlan] {
  def apply(plan: LogicalPlan): LogicalPlan = (plan, Broken.setting(s, "dropColumn")) match {
    case (p @ Project(list, _), Some(name)) if list.size > 1 && list.exists(_.name == name) =>
      p.copy(projectList = list.filterNot(_.name == name))
    case _ => plan
  }
}

case class RenameColumn(s: SparkSession) extends Rule[LogicalPlan] {
  def apply(plan: LogicalPlan): LogicalPlan = (plan, Broken.setting(s, "renameColumn")) match {
    case (p @ Project(list, _), Some(spec)) if list.exists(_.name == spec.split(":")(0)) =>
      val Array(from, to) = spec.split(":")
      p.copy(projectList = list.map {
        case n if n.name == from => Alias(n.toAttribute, to)()
        case n => n
      })
    case _ => plan
  }
}

case class ReorderProjection(s: SparkSession) extends Rule[LogicalPlan] {
  def apply(plan: LogicalPlan): LogicalPlan = (plan, Broken.setting(s, "reorder")) match {
    case (p @ Project(list, _), Some(_)) if list.map(_.name) != list.map(_.name).sorted.reverse =>
      p.copy(projectList = list.sortBy(_.name).reverse)
    case _ => plan
  }
}

case class WidenNullability(s: SparkSession) extends Rule[LogicalPlan] {
  def apply(plan: LogicalPlan): LogicalPlan = (plan, Broken.setting(s, "widenNullability")) match {
    case (p @ Project(list, _), Some(name)) if list.exists(n => n.name == name && !n.nullable) =>
      p.copy(projectList = list.map {
        case n if n.name == name => Alias(KnownNullable(n.toAttribute), name)()
        case n => n
      })
    case _ => plan
  }
}

/** Invariant 3: plans a projection with one column under another name. */
case class RenamingProjectStrategy(s: SparkSession) extends SparkStrategy {
  def apply(plan: LogicalPlan): Seq[SparkPlan] = (plan, Broken.setting(s, "strategyRename")) match {
    case (Project(list, child), Some(spec)) if list.exists(_.name == spec.split(":")(0)) =>
      val Array(from, to) = spec.split(":")
      val renamed = list.map {
        case n if n.name == from => Alias(n.toAttribute, to)(n.exprId)
        case n => n
      }
      ProjectExec(renamed, planLater(child)) :: Nil
    case _ => Nil
  }
}

/** Invariant 4: declares the projection's output but returns rows without their last column. */
case class LyingProjectStrategy(s: SparkSession) extends SparkStrategy {
  def apply(plan: LogicalPlan): Seq[SparkPlan] = (plan, Broken.setting(s, "lyingExec")) match {
    case (Project(list, child), Some(_)) if list.size > 1 =>
      LyingProjectExec(list, planLater(child)) :: Nil
    case _ => Nil
  }
}

case class LyingProjectExec(projectList: Seq[NamedExpression], child: SparkPlan)
  extends UnaryExecNode {
  override def output: Seq[Attribute] = projectList.map(_.toAttribute)
  override protected def doExecute(): RDD[InternalRow] = {
    val shorter = projectList.dropRight(1)
    val childOutput = child.output
    child.execute().mapPartitions { rows =>
      val project = UnsafeProjection.create(shorter, childOutput)
      rows.map(project)
    }
  }
  override protected def withNewChildInternal(newChild: SparkPlan): SparkPlan =
    copy(child = newChild)
}

/** Invariant 6 (adaptive): drops a column of the root projection before query stages. */
case class DropPhysicalColumn(s: SparkSession) extends Rule[SparkPlan] {
  def apply(plan: SparkPlan): SparkPlan = (plan, Broken.setting(s, "physicalDrop")) match {
    case (p @ ProjectExec(list, _), Some(name)) if list.size > 1 && list.exists(_.name == name) =>
      p.copy(projectList = list.filterNot(_.name == name))
    case _ => plan
  }
}

/** Invariant 6 (non-adaptive): reorders the root projection before the columnar transitions. */
case class ReorderPhysicalProjection(s: SparkSession) extends ColumnarRule {
  override def preColumnarTransitions: Rule[SparkPlan] = new Rule[SparkPlan] {
    def apply(plan: SparkPlan): SparkPlan = (plan, Broken.setting(s, "physicalReorder")) match {
      case (p @ ProjectExec(list, _), Some(_))
          if list.map(_.name) != list.map(_.name).sorted.reverse =>
        p.copy(projectList = list.sortBy(_.name).reverse)
      case _ => plan
    }
  }
}
