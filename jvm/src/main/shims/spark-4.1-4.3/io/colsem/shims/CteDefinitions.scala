package io.colsem.shims

import org.apache.spark.sql.catalyst.plans.logical.{SubqueryAlias, UnresolvedWith}

/** The definitions of a parsed WITH clause: (name, query, max recursion depth) from Spark 4.1. */
object CteDefinitions {

  def map(w: UnresolvedWith)(f: SubqueryAlias => SubqueryAlias): UnresolvedWith =
    w.copy(cteRelations = w.cteRelations.map { case (name, query, depth) =>
      (name, f(query), depth)
    })
}
