package io.colsem.star

import scala.util.Try

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Every Delta class and field colsem reads, in one place. Delta is optional at run time and
 * publishes for fewer Spark lines than colsem builds, so colsem cannot compile against it: the
 * command and its parts are found by class name and read through the accessors Delta declares
 * for its case class fields, by name. tests/test_table_formats.py checks each fact below against
 * the Delta release `make formats` installs and names the one that moved.
 *
 * {{{
 *   MergeIntoCommand                               CommandClass
 *     source: LogicalPlan                          SourceField
 *     target: LogicalPlan                          TargetField
 *     notMatchedClauses: Seq[...]                  NotMatchedClausesField
 *       DeltaMergeIntoNotMatchedInsertClause       InsertClauseClass
 *         actions: Seq[Expression]                 InsertActionsField
 *           DeltaMergeAction                       ActionClass
 *             targetColNameParts: Seq[String]      ActionColumnField
 *             expr: Expression                     ActionValueField
 * }}}
 */
object DeltaMergeShape {
  val CommandClass = "org.apache.spark.sql.delta.commands.MergeIntoCommand"
  val SourceField = "source"
  val TargetField = "target"
  val NotMatchedClausesField = "notMatchedClauses"
  val InsertClauseClass =
    "org.apache.spark.sql.catalyst.plans.logical.DeltaMergeIntoNotMatchedInsertClause"
  val InsertActionsField = "actions"
  val ActionClass = "org.apache.spark.sql.catalyst.plans.logical.DeltaMergeAction"
  val ActionColumnField = "targetColNameParts"
  val ActionValueField = "expr"

  def isCommand(plan: LogicalPlan): Boolean = plan.getClass.getName == CommandClass

  /** Delta's MERGE command as colsem reads it, if it has the shape above: a command whose shape
   *  moved is not read at all rather than read wrong. */
  def read(command: LogicalPlan): Option[DeltaMerge] =
    if (!isCommand(command)) None
    else for {
      source <- field(command, SourceField).collect { case p: LogicalPlan => p }
      target <- field(command, TargetField).collect { case p: LogicalPlan => p }
      clauses <- seqField(command, NotMatchedClausesField)
      inserts <- all(clauses.filter(isA(InsertClauseClass)).map(insertActions))
    } yield DeltaMerge(source, target, inserts)

  private def insertActions(clause: Any): Option[Seq[(Seq[String], Expression)]] =
    seqField(clause, InsertActionsField).flatMap { actions =>
      all(actions.filter(isA(ActionClass)).map { action =>
        for {
          column <- seqField(action, ActionColumnField)
          value <- field(action, ActionValueField).collect { case e: Expression => e }
        } yield (column.map(_.toString), value)
      })
    }

  private def isA(className: String)(value: Any): Boolean = value.getClass.getName == className

  /** A field's value through the accessor Delta declares for it. */
  private def field(obj: Any, name: String): Option[Any] =
    Try(obj.getClass.getMethod(name).invoke(obj)).toOption

  private def seqField(obj: Any, name: String): Option[Seq[Any]] =
    field(obj, name).collect { case s: scala.collection.Seq[_] => s.toList }

  private def all[T](options: Seq[Option[T]]): Option[Seq[T]] =
    if (options.forall(_.isDefined)) Some(options.flatten) else None
}
