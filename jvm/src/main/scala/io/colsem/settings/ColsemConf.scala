package io.colsem.settings

import java.util.Locale

import scala.util.Try

import org.apache.spark.sql.internal.SQLConf

import io.colsem.errors.ColsemErrors

/**
 * One typed `spark.colsem.*` key. A bad value fails the next query the user runs, with an error
 * naming the key, the value and what is allowed (see [[ColsemErrors.invalidConfValue]]).
 */
final case class ColsemConfEntry[T](
    key: String,
    default: T,
    doc: String,
    allowedValues: Seq[String],
    parse: String => Option[T],
    render: T => String) {

  def defaultString: String = render(default)

  /**
   * The value in `conf`, or the default when unset or invalid. Rules read settings this way. An
   * invalid value is reported by [[validate]], which [[ValidateColsemConf]] runs on every query
   * a user submits; a rule never throws it, because Spark also runs the analyzer for its own
   * purposes (an encoder's deserializer when a Dataset is collected, right after the very SET
   * that stored the bad value), and those runs must not fail.
   */
  def readFrom(conf: SQLConf): T = conf.getConfString(key, null) match {
    case null => default
    case raw => parse(raw.trim).getOrElse(default)
  }

  /**
   * Registers the key as a SQL conf (once per JVM). A view records the registered SQL confs set
   * when it is created and reads its text back under them: a setting that changes what a query
   * means is registered, so a view's text keeps the meaning it had at creation.
   */
  def registerForViews(): Unit = ColsemConfEntry.synchronized {
    if (!SQLConf.get.isModifiable(key)) {
      SQLConf.buildConf(key).doc(doc).version("colsem 0.1.0").stringConf
        .createWithDefault(defaultString)
    }
  }

  /** Fails with COLSEM_INVALID_CONF_VALUE when `conf` holds a value this key does not accept. */
  def validate(conf: SQLConf): Unit = conf.getConfString(key, null) match {
    case null =>
    case raw => if (parse(raw.trim).isEmpty)
        throw ColsemErrors.invalidConfValue(key, raw, allowedValues, defaultString)
  }
}

/** A scope beyond its own SELECT list where a select-list alias may be read
 *  (`spark.colsem.lateralAlias.extraScopes`). */
sealed abstract class LateralAliasScope(val name: String)

object LateralAliasScope {

  /** The WHERE of the same SELECT. */
  case object Where extends LateralAliasScope("WHERE")

  /** Subqueries (scalar, EXISTS, IN) of later items of the list. */
  case object Subquery extends LateralAliasScope("SUBQUERY")

  val all: Seq[LateralAliasScope] = Seq(Where, Subquery)
}

/** A strategy by which `*` leaves columns out (`spark.colsem.star.exclude`). */
sealed abstract class StarStrategy(val name: String)

object StarStrategy {

  /** Columns a table or view property, or their field metadata, names as hidden. */
  case object Tagged extends StarStrategy("TAGGED")

  /** Columns whose name matches `spark.colsem.star.excludePattern`. */
  case object Pattern extends StarStrategy("PATTERN")

  val all: Seq[StarStrategy] = Seq(Tagged, Pattern)
}

/** Every `spark.colsem.*` key, with its doc and default. Nothing else defines a key. */
object ColsemConf {
  val Prefix = "spark.colsem."

  val Enabled: ColsemConfEntry[Boolean] = boolean(
    "spark.colsem.enabled",
    default = true,
    "Master switch. When false every colsem rule leaves plans untouched and the session " +
      "behaves exactly as vanilla Spark (colsem_status() still answers).")

  val SinglePassResolverPolicy: ColsemConfEntry[String] = choice(
    "spark.colsem.singlePassResolver.policy",
    Seq("warn", "error"),
    default = "warn",
    "What to do when Spark's experimental single-pass analyzer " +
      "(spark.sql.analyzer.singlePassResolver.enabled) is on: it skips the resolution rules " +
      "colsem injects. 'warn' logs one warning per session; 'error' fails each query with " +
      "COLSEM_SINGLE_PASS_RESOLVER.")

  val LateralAliasEnabled: ColsemConfEntry[Boolean] = boolean(
    "spark.colsem.lateralAlias.enabled",
    default = true,
    "colsem resolves lateral column aliases (a SELECT item using an earlier item's alias): all " +
      "alias levels at once, each alias computed once. When false, Spark's native support " +
      "(spark.sql.lateralColumnAlias.enableImplicitResolution) applies unchanged.")

  val LateralAliasMaxDepth: ColsemConfEntry[Int] = positiveInt(
    "spark.colsem.lateralAlias.maxDepth",
    default = 400,
    max = 10000,
    "The most nested Projects the lateral aliases of one SELECT list may need: one per level of " +
      "aliases that later items use (past 49 levels, short runs of plain deterministic aliases " +
      "share one, so a chain of 1,000 simple aliases needs about 110). Spark processes plans " +
      "recursively and past about 450 nested Projects the JVM's default thread stack overflows, " +
      "so deeper lists fail with COLSEM_LATERAL_ALIAS_TOO_DEEP instead. Raise it only with a " +
      "larger thread stack (-Xss).")

  val LateralAliasExtraScopes: ColsemConfEntry[Seq[LateralAliasScope]] = namedList(
    "spark.colsem.lateralAlias.extraScopes",
    LateralAliasScope.all,
    (s: LateralAliasScope) => s.name,
    "Where else than in later items of their own SELECT list select-list aliases may be read, as " +
      "a comma list (empty: nowhere else, as IoTDB's lateral column alias design says; HAVING " +
      "and ORDER BY read them as in vanilla Spark either way). WHERE: the WHERE of the same " +
      "SELECT (`SELECT s1 AS x FROM t WHERE x > 1`). SUBQUERY: subqueries of later items of the " +
      "list (`SELECT s1 AS x, (SELECT max(v) FROM u WHERE u.k < x) FROM t`). A name any column " +
      "in scope resolves keeps Spark's meaning either way.")

  val StarExclude: ColsemConfEntry[Seq[StarStrategy]] = namedList(
    "spark.colsem.star.exclude",
    StarStrategy.all,
    (s: StarStrategy) => s.name,
    "Which columns `*` and `t.*` leave out, as a comma list of strategies (empty: every column, " +
      "as vanilla Spark). TAGGED: columns named by the table or view property " +
      "colsem.hidden_columns, or whose field metadata has colsem.hidden = true. PATTERN: columns " +
      "whose name matches spark.colsem.star.excludePattern. Only columns that come straight " +
      "from a table or view are left out, and never by a * in an INSERT statement.")

  val StarExcludePattern: ColsemConfEntry[String] = regex(
    "spark.colsem.star.excludePattern",
    "The Java regular expression the PATTERN strategy of spark.colsem.star.exclude matches " +
      "against a whole column name (for example _hoodie_.*|_change_type; prefix (?i) to ignore " +
      "case).")

  val InvariantsMode: ColsemConfEntry[String] = choice(
    "spark.colsem.invariants",
    Seq("off", "warn", "error"),
    default = "off",
    "Check the schema invariants of every query (docs/invariants.md): output names carry no " +
      "relation qualifier; (relation, name) pairs are unique; optimization, planning, physical " +
      "preparation and execution keep the analyzed schema. 'warn' logs each violation once per " +
      "query with the invariant, the rule or stage that broke it and a schema diff; 'error' " +
      "fails the query with COLSEM_SCHEMA_INVARIANT_VIOLATED " +
      "(or COLSEM_DUPLICATE_QUALIFIED_FIELD).")

  val NamingDialectName: ColsemConfEntry[String] = choice(
    "spark.colsem.naming.dialect",
    Seq("spark", "canonical", "postgres", "mysql", "sqlite"),
    default = "spark",
    "How unaliased SELECT items are named, at every SELECT level. 'spark': Spark's own names " +
      "(untouched). 'canonical': DataFusion's output-field-name rules on the expression as " +
      "written (no qualifier, lower-case functions, unquoted strings, operators in parentheses). " +
      "'postgres': PostgreSQL's names (a column's or function's name, a cast's type, else " +
      "?column?). 'mysql': MySQL/MariaDB's (the text as written; a string literal's value). " +
      "'sqlite': SQLite's (the text exactly as written). Without SQL text (DataFrame API) mysql " +
      "and sqlite use canonical. See docs/naming.md.")

  /** In the order `colsem_status()` and the docs list them. */
  val all: Seq[ColsemConfEntry[_]] = Seq(
    Enabled,
    SinglePassResolverPolicy,
    LateralAliasEnabled,
    LateralAliasMaxDepth,
    LateralAliasExtraScopes,
    StarExclude,
    StarExcludePattern,
    NamingDialectName,
    InvariantsMode)

  private val byKey: Map[String, ColsemConfEntry[_]] =
    all.map(e => e.key.toLowerCase(Locale.ROOT) -> e).toMap

  def find(key: String): Option[ColsemConfEntry[_]] = byKey.get(key.toLowerCase(Locale.ROOT))

  def isEnabled(conf: SQLConf): Boolean = Enabled.readFrom(conf)

  private def boolean(key: String, default: Boolean, doc: String): ColsemConfEntry[Boolean] =
    ColsemConfEntry[Boolean](
      key,
      default,
      doc,
      Seq("true", "false"),
      raw =>
        raw.toLowerCase(Locale.ROOT) match {
          case "true" => Some(true)
          case "false" => Some(false)
          case _ => None
        },
      _.toString)

  private def positiveInt(key: String, default: Int, max: Int, doc: String): ColsemConfEntry[Int] =
    ColsemConfEntry[Int](
      key,
      default,
      doc,
      Seq(s"an integer from 1 to $max"),
      raw => Try(raw.toInt).toOption.filter(v => v >= 1 && v <= max),
      _.toString)

  /** A comma list of the `values` named (upper-case names, any case in the list, spaces allowed),
   *  without repeats, in the order written; empty by default. */
  private def namedList[T](
      key: String,
      values: Seq[T],
      nameOf: T => String,
      doc: String): ColsemConfEntry[Seq[T]] = {
    val byName = values.map(v => nameOf(v) -> v).toMap
    ColsemConfEntry[Seq[T]](
      key,
      Seq.empty,
      doc,
      Seq(s"a comma-separated list of ${values.map(nameOf).mkString(", ")} (or empty)"),
      raw => {
        val names = raw.split(",").map(_.trim).filter(_.nonEmpty).map(_.toUpperCase(Locale.ROOT))
        if (names.forall(byName.contains)) Some(names.distinct.toSeq.map(byName)) else None
      },
      _.map(nameOf).mkString(","))
  }

  /** A regular expression that compiles; empty means none. */
  private def regex(key: String, doc: String): ColsemConfEntry[String] =
    ColsemConfEntry[String](
      key,
      "",
      doc,
      Seq("a Java regular expression that compiles"),
      raw => scala.util.Try(java.util.regex.Pattern.compile(raw)).toOption.map(_ => raw),
      identity)

  private def choice(
      key: String,
      values: Seq[String],
      default: String,
      doc: String): ColsemConfEntry[String] =
    ColsemConfEntry[String](
      key,
      default,
      doc,
      values,
      raw => values.find(_.equalsIgnoreCase(raw)),
      identity)
}
