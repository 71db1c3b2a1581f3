package io.colsem.star

import org.apache.spark.sql.{SaveMode, SparkSession}
import org.apache.spark.sql.catalyst.plans.logical.{
  InsertIntoStatement, LogicalPlan, V2WriteCommand
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.catalyst.streaming.WriteToStream
import org.apache.spark.sql.catalyst.trees.Origin
import org.apache.spark.sql.execution.colsem.SessionCatalogTables
import org.apache.spark.sql.execution.datasources.SaveIntoDataSourceCommand
import org.apache.spark.sql.sources.DataSourceRegister

import io.colsem.errors.ColsemErrors
import io.colsem.vocabulary.UserQueries

/**
 * Resolution rule for data safety. While the session hides columns from `*`, a query that went
 * through a `*` (a view, a CTE, a DataFrame's `select("*")`...) may lack the hidden columns of the
 * table it came from, and writing it back would put DEFAULT or NULL into them without a word:
 * Spark fills a column an INSERT BY NAME or a DSv2 write leaves out, and Delta and Iceberg fill
 * missing columns themselves. So a write that leaves out hidden columns of its target fails with
 * COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN, naming them, before anything is written:
 *
 *  - `INSERT INTO t BY NAME ...` (an explicit column list says which columns it writes, and stays
 *    as in vanilla Spark);
 *  - DSv2 writes (`AppendData`, `OverwriteByExpression`, `OverwritePartitionsDynamic`, by name or
 *    by position): the columns the query [[MarkWrittenQueries]] marked provides, not the ones
 *    Spark's output resolution added;
 *  - a format's own write of a DataFrame to a path (`df.write.format("delta").save(path)`), when
 *    the session catalog knows the table at that path;
 *  - a stream's write into a table (`writeStream.toTable(t)`), before its first micro-batch, when
 *    a `*` of the stream's query left out the hidden columns it lacks.
 */
object ProtectHiddenColumnsOnWrite extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (UserQueries.changesConf(plan)) plan
    else StarExclusion.read(conf) match {
      case None => plan
      case Some(exclusion) =>
        // Only while columns are hidden: one walk over the operators, no expressions.
        plan.foreach {
          case i: InsertIntoStatement
              if i.byName && i.userSpecifiedCols.isEmpty &&
                i.table.resolved && i.query.resolved =>
            // A static partition value (PARTITION (p = 'x')) provides its column too.
            check(
              "INSERT BY NAME",
              HiddenColumns.underAliases(i.table),
              i.query.output.map(_.name) ++ i.partitionSpec.keys,
              exclusion,
              i.query.origin)
          case w: V2WriteCommand if w.table.resolved && w.query.resolved =>
            MarkWrittenQueries.writtenQuery(w).foreach { query =>
              val target = HiddenColumns.underAliases(w.table)
              val provided =
                if (w.isByName) query.output.map(_.name)
                else target.output.take(query.output.size).map(_.name)
              check("A DataFrame write", target, provided, exclusion, query.origin)
            }
          case w: WriteToStream if w.inputQuery.resolved =>
            // A stream's sink table: a file sink writes the columns it gets, and Delta's and
            // Iceberg's fill the others with NULL, micro-batch after micro-batch. Only a column a
            // `*` of the stream's query left out is lost by colsem; a stream that never read it
            // writes as in vanilla Spark (a DEFAULT or a later job may fill it).
            lazy val leftOut = leftOutByStars(w.inputQuery)
            streamTarget(w).foreach { target =>
              HiddenColumns.notProvidedBy(
                target,
                w.inputQuery.output.map(_.name),
                exclusion,
                conf.resolver).flatMap(_.only(leftOut, conf.resolver))
                .foreach(missing => fail("A streaming write", missing, w.origin))
            }
          case s: SaveIntoDataSourceCommand
              if s.mode == SaveMode.Append || s.mode == SaveMode.Overwrite =>
            formatTableAtPath(s).foreach(target =>
              check(
                "A DataFrame save to a path",
                target,
                s.query.output.map(_.name),
                exclusion,
                s.query.origin))
          case _ =>
        }
        plan
    }

  private def check(
      write: String,
      target: LogicalPlan,
      provided: Seq[String],
      exclusion: StarExclusion,
      origin: Origin): Unit =
    HiddenColumns.notProvided(target, provided, exclusion, conf.resolver)
      .foreach(fail(write, _, origin))

  private def fail(write: String, missing: HiddenColumnsNotProvided, origin: Origin): Nothing =
    throw ColsemErrors.hiddenColumnsNotWritten(
      write,
      missing.tableName,
      missing.columns,
      missing.providedColumns,
      origin)

  /** The names of the columns the stars of `query` left out ([[ResolveColumnHidingStars]]). */
  private def leftOutByStars(query: LogicalPlan): Seq[String] =
    query.collect(Function.unlift(_.getTagValue(ResolveColumnHidingStars.LeftOut))).flatten

  /** The table a stream writes to (`writeStream.toTable`): its catalog entry where the session
   *  catalog has one (parquet, Delta), else the DSv2 table the stream writes (Iceberg); None for
   *  a sink that is no table (memory, console, a path, foreachBatch). */
  private def streamTarget(w: WriteToStream): Option[ColumnSource] =
    w.catalogTable.map(ColumnSource.ofCatalogTable).orElse(
      w.catalogAndIdent.map(_ => ColumnSource.ofTable(w.sink)))

  /** The table a format's path write goes to, as the session catalog reads `format.`path``
   *  (Delta's does); None for formats it does not know that way, such as plain parquet files. */
  private def formatTableAtPath(save: SaveIntoDataSourceCommand): Option[LogicalPlan] =
    (save.dataSource, save.options.get("path")) match {
      case (format: DataSourceRegister, Some(path)) =>
        SessionCatalogTables.relation(SparkSession.active, Seq(format.shortName()), path)
      case _ => None
    }
}
