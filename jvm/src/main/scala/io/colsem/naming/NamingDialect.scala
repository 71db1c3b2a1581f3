package io.colsem.naming

import java.util.Locale

import org.apache.spark.sql.internal.SQLConf

import io.colsem.settings.ColsemConf

/** How colsem names the unaliased items of a SELECT list (`spark.colsem.naming.dialect`). */
sealed abstract class NamingDialect(val key: String)

object NamingDialect {

  /** Spark's own names, untouched (the default). */
  case object Spark extends NamingDialect("spark")

  /** DataFusion's output-field-name rules, applied to the expression as written. */
  case object Canonical extends NamingDialect("canonical")

  /** PostgreSQL's FigureColname: a column's or function's name, a cast's type, else `?column?`. */
  case object Postgres extends NamingDialect("postgres")

  /** MySQL/MariaDB: the item's text as written; a column's name; a string literal's value. */
  case object MySQL extends NamingDialect("mysql")

  /** SQLite: the item's text exactly as written; a column's name. */
  case object SQLite extends NamingDialect("sqlite")

  val all: Seq[NamingDialect] = Seq(Spark, Canonical, Postgres, MySQL, SQLite)

  /** Registered for views (see [[io.colsem.settings.ColsemConfEntry.registerForViews]]): a view's
   *  body is named as it was at creation, and its stored column names still match (otherwise a
   *  view made under `postgres` fails to read with INCOMPATIBLE_VIEW_SCHEMA_CHANGE). */
  def registerForViews(): Unit = ColsemConf.NamingDialectName.registerForViews()

  /** The session's dialect; Spark when colsem is disabled or the value is bad (which
   *  ValidateColsemConf reports). */
  def of(conf: SQLConf): NamingDialect =
    if (!ColsemConf.isEnabled(conf)) Spark
    else {
      val key = ColsemConf.NamingDialectName.readFrom(conf).toLowerCase(Locale.ROOT)
      all.find(_.key == key).getOrElse(Spark)
    }
}
