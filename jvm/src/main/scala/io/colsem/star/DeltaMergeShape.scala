package io.colsem.star

import scala.util.Try

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Every Delta class and field colsem reads, in one place. Delta is optional at run time and
 * publishes for fewer Spark lines than colsem builds, so colsem cannot compile against it: the
 * command and its parts are found by class name and read through the accessors Delta declares
 * for its case class fields, by name. [[DeltaMergeShape.OfDelta]] holds the names; tests/
 * test_table_formats.py checks each against the Delta release `make formats` installs, names the
 * one that moved, and reads a real command with each name changed in turn.
 *
 * {{{
 *   MergeIntoCommand                               commandClass
 *     source: LogicalPlan                          sourceField
 *     target: LogicalPlan                          targetField
 *     notMatchedClauses: Seq[...]                  notMatchedClausesField
 *       DeltaMergeIntoNotMatchedInsertClause       insertClauseClass
 *         actions: Seq[Expression]                 insertActionsField
 *           DeltaMergeAction                       actionClass
 *             targetColNameParts: Seq[String]      actionColumnField
 *             expr: Expression                     actionValueField
 * }}}
 */
final case class DeltaMergeShape(
    commandClass: String,
    sourceField: String,
    targetField: String,
    notMatchedClausesField: String,
    insertClauseClass: String,
    insertActionsField: String,
    actionClass: String,
    actionColumnField: String,
    actionValueField: String) {

  def isCommand(plan: LogicalPlan): Boolean = plan.getClass.getName == commandClass

  /** A plan of Delta's whose class is named like a merge: the command under another name, if
   *  [[isCommand]] does not know it. */
  def mayBeCommand(plan: LogicalPlan): Boolean = {
    val name = plan.getClass.getName
    name.startsWith(DeltaMergeShape.DeltaPackage) && name.split('.').last.contains("Merge")
  }

  /** Delta's MERGE command as colsem reads it, if every fact above holds of it: a command whose
   *  shape moved (a field gone, a clause or an action of another class) is not read at all rather
   *  than read wrong or in part. Delta's only not-matched clause is the insert clause. */
  def read(command: LogicalPlan): Option[DeltaMerge] =
    if (!isCommand(command)) None
    else for {
      source <- field(command, sourceField).collect { case p: LogicalPlan => p }
      target <- field(command, targetField).collect { case p: LogicalPlan => p }
      clauses <- seqField(command, notMatchedClausesField)
      inserts <- all(clauses.map(insertActions))
    } yield DeltaMerge(source, target, inserts)

  private def insertActions(clause: Any): Option[Seq[(Seq[String], Expression)]] =
    if (!isA(insertClauseClass, clause)) None
    else seqField(clause, insertActionsField).flatMap(actions => all(actions.map(action)))

  private def action(action: Any): Option[(Seq[String], Expression)] =
    if (!isA(actionClass, action)) None
    else for {
      column <- seqField(action, actionColumnField)
      value <- field(action, actionValueField).collect { case e: Expression => e }
    } yield (column.map(_.toString), value)

  private def isA(className: String, value: Any): Boolean = value.getClass.getName == className

  /** A field's value through the accessor Delta declares for it. */
  private def field(obj: Any, name: String): Option[Any] =
    Try(obj.getClass.getMethod(name).invoke(obj)).toOption

  private def seqField(obj: Any, name: String): Option[Seq[Any]] =
    field(obj, name).collect { case s: scala.collection.Seq[_] => s.toList }

  private def all[T](options: Seq[Option[T]]): Option[Seq[T]] =
    if (options.forall(_.isDefined)) Some(options.flatten) else None
}

object DeltaMergeShape {

  /** The names of the Delta release `formats.delta.jar` (versions.properties) pins. */
  val OfDelta: DeltaMergeShape = DeltaMergeShape(
    commandClass = "org.apache.spark.sql.delta.commands.MergeIntoCommand",
    sourceField = "source",
    targetField = "target",
    notMatchedClausesField = "notMatchedClauses",
    insertClauseClass =
      "org.apache.spark.sql.catalyst.plans.logical.DeltaMergeIntoNotMatchedInsertClause",
    insertActionsField = "actions",
    actionClass = "org.apache.spark.sql.catalyst.plans.logical.DeltaMergeAction",
    actionColumnField = "targetColNameParts",
    actionValueField = "expr")

  private val DeltaPackage = "org.apache.spark.sql.delta."
}
