package io.colsem.shims

import org.apache.spark.sql.catalyst.plans.logical.{SubqueryAlias, UnresolvedWith}

/** The definitions of a parsed WITH clause: (name, query) pairs on Spark 3.5 and 4.0. */
object CteDefinitions {

  def map(w: UnresolvedWith)(f: SubqueryAlias => SubqueryAlias): UnresolvedWith =
    w.copy(cteRelations = w.cteRelations.map { case (name, query) => (name, f(query)) })
}
