package io.colsem.vocabulary

import java.util.Locale
import java.util.concurrent.ConcurrentHashMap

import scala.util.Try

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.FunctionIdentifier
import org.apache.spark.sql.catalyst.analysis.{
  FunctionRegistry, TableFunctionRegistry, UnresolvedAttribute, UnresolvedFunction
}
import org.apache.spark.sql.catalyst.expressions.{
  Alias, Attribute, Expression, Generator, VirtualColumn
}
import org.apache.spark.sql.catalyst.plans.logical.{OneRowRelation, Project}

import io.colsem.shims.SparkShims

/**
 * What kind of function a still-unresolved name or call stands for, asked of Spark itself rather
 * than of a list of names kept here, so that a Spark line adding one is followed without a change.
 */
object FunctionKinds {

  /** Whether the built-in or temporary function `u` calls is implemented by a subclass of `kind`
   *  (an aggregate, a generator, a non-deterministic expression). A function registered through a
   *  builder (Spark 3.5's `explode`) names the builder's class: then the expression the builder
   *  makes of the call's arguments tells. */
  def implementedBy(session: SparkSession, u: UnresolvedFunction, kind: Class[_]): Boolean =
    u.nameParts.size == 1 &&
      session.sessionState.catalog.lookupBuiltinOrTempFunction(u.nameParts.head).exists { info =>
        Try(Class.forName(info.getClassName, false, getClass.getClassLoader)).toOption.exists {
          cls =>
            kind.isAssignableFrom(cls) || (!classOf[Expression].isAssignableFrom(cls) &&
              Try(session.sessionState.functionRegistry.lookupFunction(
                FunctionIdentifier(u.nameParts.head),
                u.arguments)).toOption.exists(kind.isInstance))
        }
      }

  /** Whether `u` calls a generator (`explode`, `inline`, `stack`, a Hive UDTF, ...). A built-in
   *  generator is also a built-in table function (Spark registers each in both registries, and
   *  nothing else is in both), which tells before the call's arguments are resolved: the builder
   *  Spark registers `explode` with may not build over unresolved arguments. */
  def isGenerator(session: SparkSession, u: UnresolvedFunction): Boolean =
    (isBuiltin(u) && TableFunctionRegistry.builtin.functionExists(
      FunctionIdentifier(u.nameParts.head))) ||
      implementedBy(session, u, classOf[Generator])

  /** Whether `u` calls a built-in function (a one-part name Spark's registry defines). */
  def isBuiltin(u: UnresolvedFunction): Boolean =
    u.nameParts.size == 1 && FunctionRegistry.builtin.functionExists(
      FunctionIdentifier(u.nameParts.head))

  private val literalFunctions = new ConcurrentHashMap[String, java.lang.Boolean]()

  /**
   * Whether Spark reads the bare name as a call of a parameterless function (`current_user`,
   * `current_date`, `session_user`, `grouping__id`, ...), as it does whenever no column of the
   * input has that name, before it considers a lateral column alias (Spark's golden files record
   * `SELECT 'abc' AS current_user, current_user = current_user()` as true). Spark's own list is
   * private: the answer comes from analyzing the bare name over no input, once per name and JVM,
   * for names that are a built-in function's or Hive's grouping id column's. A session variable of
   * that name does not count: a lateral alias comes before a variable.
   */
  def isLiteralFunction(session: SparkSession, name: String): Boolean = {
    val key = name.toLowerCase(Locale.ROOT)
    val candidate = key == VirtualColumn.hiveGroupingIdName.toLowerCase(Locale.ROOT) ||
      FunctionRegistry.builtin.functionExists(FunctionIdentifier(key))
    candidate && literalFunctions.computeIfAbsent(
      key,
      _ => java.lang.Boolean.valueOf(probe(session, key)))
  }

  private def probe(session: SparkSession, name: String): Boolean = {
    val analyzed = Try(session.sessionState.analyzer.execute(
      Project(Seq(UnresolvedAttribute(Seq(name))), OneRowRelation())))
    analyzed.toOption.exists {
      case Project(Seq(item), _) if item.resolved =>
        item match {
          case Alias(child, _) =>
            !child.exists(e => e.isInstanceOf[Attribute] || SparkShims.isVariableReference(e))
          case _ => false
        }
      case _ => false
    }
  }
}
