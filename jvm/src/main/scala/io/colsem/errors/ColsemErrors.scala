package io.colsem.errors

import org.apache.spark.ErrorClassesJsonReader
import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.catalyst.parser.ParseException
import org.apache.spark.sql.catalyst.trees.Origin

import io.colsem.shims.{AnalysisExceptions, SparkShims}

/**
 * The one place colsem's errors are made. Error classes, message templates and SQLSTATEs live in
 * `error/colsem-error-conditions.json`, in the format of Spark's own error-conditions.json. Each
 * error is an `AnalysisException` carrying its class, SQLSTATE, parameters and, when it belongs to
 * a piece of the SQL text, that position; PySpark maps it to `pyspark.errors.AnalysisException`
 * with `getCondition()` and `getSqlState()`.
 */
object ColsemErrors {
  val ConditionsResource = "error/colsem-error-conditions.json"

  lazy val conditions: ErrorClassesJsonReader =
    new ErrorClassesJsonReader(Seq(getClass.getClassLoader.getResource(ConditionsResource)))

  def invalidConfValue(
      key: String,
      value: String,
      allowedValues: Seq[String],
      default: String): AnalysisException =
    error(
      "COLSEM_INVALID_CONF_VALUE",
      Map(
        "confName" -> key,
        "confValue" -> value,
        "allowedValues" -> allowedValues.mkString(", "),
        "default" -> default))

  def unknownConf(
      key: String,
      suggestion: Option[String],
      knownKeys: Seq[String]): AnalysisException =
    error(
      "COLSEM_UNKNOWN_CONF",
      Map(
        "confName" -> key,
        "suggestion" -> suggestion.map(s => s" Did you mean '$s'?").getOrElse(""),
        "knownKeys" -> knownKeys.mkString(", ")))

  /** `key` (from `source`: setting, environment or default) turned the single-pass resolver on. */
  def singlePassResolverActive(key: String, source: String, turnOff: String): AnalysisException =
    error(
      "COLSEM_SINGLE_PASS_RESOLVER",
      Map("key" -> key, "source" -> source, "turnOff" -> turnOff))

  /** `refusal` raised while `command` is parsed, where nothing but a ParseException may go. */
  def atParse(command: String, refusal: AnalysisException): ParseException =
    AnalysisExceptions.parseRefusal(command, refusal.errorClass.get, refusal.messageParameters)

  /**
   * Spark's own AMBIGUOUS_LATERAL_COLUMN_ALIAS error (class, SQLSTATE and parameters as its native
   * support raises it) for a reference to an alias that several earlier items define, with a hint
   * saying where they are (`positions`).
   */
  def ambiguousLateralAlias(
      reference: String,
      definitions: Seq[Origin],
      origin: Origin): AnalysisException = {
    val positions = definitions.map(position).mkString(" and ")
    withHint(
      SparkShims.ambiguousLateralAliasError(reference, definitions.size),
      s"The earlier items that define it are at $positions; give them distinct names.",
      Map("positions" -> positions),
      origin)
  }

  /**
   * Spark's own unresolved-column error for a name only a later SELECT item (or the item itself)
   * defines, with a hint saying so: same class, SQLSTATE and parameters, plus `laterAlias`.
   */
  def forwardLateralAlias(
      unresolved: AnalysisException,
      name: String,
      reference: Origin,
      definition: Origin,
      selfReference: Boolean): AnalysisException = {
    val where = if (selfReference) "this item itself"
    else s"a later item of this SELECT list, at ${position(definition)}"
    withHint(
      unresolved,
      s"`$name` is defined by $where; a lateral column alias can be used only by the " +
        "items after the one that defines it.",
      Map("laterAlias" -> position(definition)),
      reference)
  }

  /**
   * Spark's own unresolved-column error for a name that means a select-list alias only in a
   * scope (`scope`: WHERE or SUBQUERY) the setting `key` leaves out, with a hint saying how to
   * read it there (`value`: the setting with that scope added); class, SQLSTATE and parameters
   * stay Spark's.
   */
  def lateralAliasOutOfScope(
      unresolved: AnalysisException,
      name: String,
      scope: String,
      key: String,
      value: String,
      reference: Origin): AnalysisException = {
    val where = if (scope == "WHERE") "the WHERE does not read the aliases of its SELECT list"
    else "a subquery does not read the aliases of the SELECT list it is in"
    withHint(
      unresolved,
      s"`$name` is a select-list alias, but $where unless $key includes $scope " +
        s"(SET $key=$value).",
      Map.empty,
      reference)
  }

  /** One of Spark's own errors with colsem's hint appended to its message: the class, SQLSTATE
   *  and Spark's parameters stay as they are (colsem adds parameters, never a class). */
  private def withHint(
      spark: AnalysisException,
      hint: String,
      extraParameters: Map[String, String],
      origin: Origin): AnalysisException = {
    val errorClass = SparkShims.errorClassOf(spark)
    AnalysisExceptions.create(
      message =
        s"[$errorClass] ${SparkShims.sparkMessageText(errorClass, spark.messageParameters)} " +
          s"$hint SQLSTATE: ${spark.getSqlState}",
      errorClass = errorClass,
      sqlState = spark.getSqlState,
      parameters = spark.messageParameters ++ extraParameters,
      origin = Some(origin))
  }

  /** A WHERE name that means a select-list alias whose expression aggregates (`definition`: that
   *  item): WHERE filters rows before they are aggregated. */
  def aggregateAliasInWhere(
      name: String,
      definition: Origin,
      reference: Origin): AnalysisException =
    error(
      "COLSEM_AGGREGATE_ALIAS_IN_WHERE",
      Map("name" -> name, "aliasPosition" -> position(definition)),
      Some(reference))

  /** A WHERE name that means a select-list alias with a window function: WHERE filters rows
   *  before window functions are computed over them. */
  def windowAliasInWhere(name: String, definition: Origin, reference: Origin): AnalysisException =
    error(
      "COLSEM_WINDOW_ALIAS_IN_WHERE",
      Map("name" -> name, "aliasPosition" -> position(definition)),
      Some(reference))

  def lateralAliasTooDeep(depth: Int, maxDepth: Int, origin: Origin): AnalysisException =
    error(
      "COLSEM_LATERAL_ALIAS_TOO_DEEP",
      Map("depth" -> depth.toString, "maxDepth" -> maxDepth.toString),
      Some(origin))

  def starPatternRequired(): AnalysisException = error("COLSEM_STAR_PATTERN_REQUIRED", Map.empty)

  def unknownHiddenColumns(
      objectType: String,
      objectName: String,
      unknown: Seq[String],
      valid: Seq[String],
      columns: Seq[String],
      origin: Option[Origin]): AnalysisException = {
    val listed = unknown.map(n => s"'$n'").mkString(", ")
    error(
      "COLSEM_UNKNOWN_HIDDEN_COLUMNS",
      Map(
        "objectType" -> objectType,
        "objectName" -> objectName,
        "unknownColumns" -> listed,
        "columns" -> columns.mkString(", "),
        "validValue" -> valid.mkString(",")),
      origin)
  }

  /** `write` says which kind of write it is, as the message's first words ("INSERT BY NAME"). */
  def hiddenColumnsNotWritten(
      write: String,
      table: String,
      missing: Seq[String],
      providedColumns: Seq[String],
      origin: Origin): AnalysisException =
    hiddenColumnsError(
      write,
      table,
      missing,
      origin,
      s"Select them explicitly (SELECT *, ${missing.mkString(", ")} FROM ..., " +
        "or df.select(\"*\", ...)), or list the columns the INSERT writes " +
        s"(INSERT INTO $table (${providedColumns.mkString(", ")}) ...) to fill the others with " +
        "their defaults on purpose.")

  /** The same error for a MERGE whose `UPDATE SET *` / `INSERT *` (`write`) would take columns its
   *  source lacks; `sourceAlias` qualifies the columns of the assignments it suggests. */
  def hiddenColumnsNotWrittenByMerge(
      write: String,
      table: String,
      missing: Seq[String],
      providedColumns: Seq[String],
      sourceAlias: Option[String],
      origin: Origin): AnalysisException = {
    val alias = sourceAlias.getOrElse("source")
    def fromSource(c: String) = s"$alias.$c"
    val assignments = providedColumns.map(c => s"$c = ${fromSource(c)}").mkString(", ")
    hiddenColumnsError(
      write,
      table,
      missing,
      origin,
      "UPDATE SET * and INSERT * set every column of the target from the source's column of the " +
        "same name. Name them in the source's select list " +
        s"(USING (SELECT *, ${missing.mkString(", ")} FROM ...) AS $alias), " +
        s"or spell the actions out (UPDATE SET $assignments; " +
        s"INSERT (${providedColumns.mkString(", ")}) " +
        s"VALUES (${providedColumns.map(fromSource).mkString(", ")})): " +
        "an UPDATE then keeps their values, an INSERT fills them with their defaults.")
  }

  def hiddenColumnsNotWrittenByDeltaMerge(
      table: String,
      missing: Seq[String]): AnalysisException = {
    val selected = ("*" +: missing).map(c => "\"" + c + "\"").mkString(", ")
    hiddenColumnsError(
      "Delta's merge API (DeltaTable.merge)",
      table,
      missing,
      Origin(),
      "Its source went through a * that left them out, and an insert of the merge would " +
        "fill them with NULL (insertAll() with schema evolution, or an insert(...) that does " +
        "not set them). " +
        s"Select them in the source (df.select($selected)), or set them in insert(...) explicitly.")
  }

  private def hiddenColumnsError(
      write: String,
      table: String,
      missing: Seq[String],
      origin: Origin,
      advice: String): AnalysisException =
    error(
      "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN",
      Map(
        "write" -> write,
        "tableName" -> table,
        "missingColumns" -> missing.map(c => s"`$c`").mkString(", "),
        "advice" -> advice),
      Some(origin))

  /** colsem's classes cannot reach the executors (see [[ExecutorJar]]); before any task starts. */
  def jarNotOnExecutors(
      location: String,
      master: String,
      feature: String,
      reason: String): AnalysisException =
    error(
      "COLSEM_JAR_NOT_ON_EXECUTORS",
      Map("feature" -> feature, "master" -> master, "location" -> location, "reason" -> reason))

  def columnsArguments(count: Int): AnalysisException =
    error("COLSEM_COLUMNS_ARGUMENTS", Map("argumentCount" -> count.toString))

  def withPresenceArguments(count: Int): AnalysisException =
    error("COLSEM_WITH_PRESENCE_ARGUMENTS", Map("argumentCount" -> count.toString))

  private def position(origin: Origin): String =
    (origin.line, origin.startPosition) match {
      case (Some(l), Some(p)) => s"line $l, position ${p + 1}"
      case _ => "a DataFrame expression"
    }

  def statusArguments(count: Int): AnalysisException =
    error("COLSEM_STATUS_ARGUMENTS", Map("argumentCount" -> count.toString))

  /** `[CLASS] text SQLSTATE: code`, Spark's message layout; also used for logged warnings. */
  def message(errorClass: String, parameters: Map[String, String]): String =
    s"[$errorClass] ${conditions.getErrorMessage(errorClass, parameters)} " +
      s"SQLSTATE: ${conditions.getSqlState(errorClass)}"

  /**
   * Builds the exception. The message follows Spark's layout, `[CLASS] text SQLSTATE: code`, and
   * Spark appends the SQL fragment the origin points at when it reports the error.
   */
  def error(
      errorClass: String,
      parameters: Map[String, String],
      origin: Option[Origin] = None): AnalysisException = {
    AnalysisExceptions.create(
      message = message(errorClass, parameters),
      errorClass = errorClass,
      sqlState = conditions.getSqlState(errorClass),
      parameters = parameters,
      origin = origin)
  }
}
