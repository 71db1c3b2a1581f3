package org.apache.spark.sql.connect.colsem

import org.apache.spark.sql.catalyst.analysis.Resolver

/** Spark 3.5 and 4.0 have no Declarative Pipelines: no pipeline declares a table. */
object PipelineDatasets {
  def declaredProperty(nameParts: Seq[String], key: String, resolver: Resolver): Option[String] =
    None
}
