package io.colsem.star

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * What colsem reads of Delta's MERGE command ([[DeltaMergeShape]]): its source and target plans,
 * and for each WHEN NOT MATCHED THEN INSERT clause the target column each of its actions sets (as
 * name parts) with the value it sets it to.
 */
final case class DeltaMerge(
    source: LogicalPlan,
    target: LogicalPlan,
    inserts: Seq[Seq[(Seq[String], Expression)]])
