package io.colsem.star

import org.apache.spark.sql.catalyst.plans.logical.{InsertIntoStatement, LogicalPlan, SubqueryAlias}
import org.apache.spark.sql.catalyst.rules.Rule

import io.colsem.{ColsemErrors, UserQueries}

/**
 * Resolution rule for data safety. While the session hides columns from `*`, a query that went
 * through a `*` (a view, a temp view, a CTE...) may lack the hidden columns of the table it came
 * from, and `INSERT INTO t BY NAME` would then write DEFAULT or NULL into them without a word.
 * So an INSERT BY NAME that leaves out hidden columns of its target fails, naming them; an INSERT
 * with an explicit column list says which columns it writes and stays as in vanilla Spark.
 */
object ProtectHiddenColumnsOnInsert extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (UserQueries.changesConf(plan)) plan
    else StarExclusion.read(conf) match {
      case None => plan
      case Some(exclusion) =>
        // Only while columns are hidden: one walk over the operators, no expressions.
        plan.foreach {
          case i: InsertIntoStatement if i.byName && i.userSpecifiedCols.isEmpty &&
              i.table.resolved && i.query.resolved =>
            check(i, exclusion)
          case _ =>
        }
        plan
    }

  private def check(insert: InsertIntoStatement, exclusion: StarExclusion): Unit =
    ColumnSource.of(stripAliases(insert.table)).foreach { target =>
      val resolver = conf.resolver
      val hidden = target.markers(exclusion.patternText, resolver).collect {
        case (column, markers) if exclusion.hides(markers) => column.name
      }
      val provided = insert.query.output.map(_.name)
      // A static partition value (PARTITION (p = 'x')) provides its column too.
      val unprovided = hidden.filterNot(h =>
        provided.exists(resolver(_, h)) || insert.partitionSpec.keys.exists(resolver(_, h)))
      if (unprovided.nonEmpty) {
        throw ColsemErrors.hiddenColumnsNotWritten(
          target.name.getOrElse("?"), unprovided,
          target.output.map(_.name).filter(c => provided.exists(resolver(_, c))), insert.query.origin)
      }
    }

  private def stripAliases(plan: LogicalPlan): LogicalPlan = plan match {
    case SubqueryAlias(_, child) => stripAliases(child)
    case other => other
  }
}
