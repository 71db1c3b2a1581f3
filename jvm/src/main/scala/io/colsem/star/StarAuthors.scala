package io.colsem.star

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.{Command, LogicalPlan}
import org.apache.spark.sql.execution.colsem.RunningExecution
import org.apache.spark.sql.execution.command.{DescribeQueryCommand, ExplainCommand}

/** Who wrote a star: a user (SQL text, DataFrame code in any language, a Connect client, a
 *  pipeline's query), or code that runs inside a command (a format's MERGE, UPDATE, DELETE,
 *  OPTIMIZE, change-data or procedure code), which must get every column. */
sealed trait StarAuthor

object StarAuthor {
  case object User extends StarAuthor
  case object Command extends StarAuthor
}

/**
 * Tells a user's star from a star code running inside a command built (docs/star.md, "Stars no
 * user wrote"). Two signs, both of the thread the analysis runs on:
 *  - the running SQL execution's plan is a command other than EXPLAIN / DESCRIBE QUERY: a command
 *    runs its own code inside its execution (`SQLExecution.withNewExecutionId` around `run()`;
 *    Delta's MERGE, UPDATE, DELETE, OPTIMIZE and change-data readers build their DataFrames
 *    there). A user's query analyzes before its execution starts, so its stars see none, or the
 *    plan of a query (a foreachBatch function runs inside the micro-batch's write of its sink, a
 *    query plan, not a command); EXPLAIN and DESCRIBE QUERY analyze the user's own query.
 *  - two analyses nest (`Analyzer.executeAndCheck` twice on the stack): something analyzed a plan
 *    while the analyzer ran, which no user's statement does except EXECUTE IMMEDIATE (Spark's
 *    ResolveExecuteImmediate, between the two frames). Iceberg's CALL on 4.x runs its procedure
 *    during analysis, with no execution id.
 * Read only when a star was found to wrap, so that queries without one pay nothing.
 */
object StarAuthors {

  private val AnalyzerClass = "org.apache.spark.sql.catalyst.analysis.Analyzer"
  private val ExecuteImmediate = "org.apache.spark.sql.catalyst.analysis.ResolveExecuteImmediate"

  /** The frames this reads, for tests/test_spark_internals.py. */
  val Frames: Seq[(String, String)] = Seq(AnalyzerClass -> "executeAndCheck")

  /** [[Frames]] as "class#method", for the test through py4j. */
  def framesForTest: java.util.List[String] = {
    val out = new java.util.ArrayList[String]()
    Frames.foreach { case (c, m) => out.add(s"$c#$m") }
    out
  }

  def current(session: SparkSession): StarAuthor =
    if (RunningExecution.plan(session).exists(isCommandRunning) || analysisNested())
      StarAuthor.Command
    else StarAuthor.User

  private def isCommandRunning(plan: LogicalPlan): Boolean = plan match {
    case _: ExplainCommand | _: DescribeQueryCommand => false
    case _: Command => true
    case _ => false
  }

  /** Two `executeAndCheck` frames, innermost first, with no EXECUTE IMMEDIATE between them. */
  private def analysisNested(): Boolean = {
    val relevant = java.lang.StackWalker.getInstance().walk[java.util.List[String]](frames =>
      frames.map[String] { f =>
        if (f.getClassName == AnalyzerClass && f.getMethodName == "executeAndCheck") "analysis"
        else if (f.getClassName.startsWith(ExecuteImmediate)) "immediate"
        else ""
      }.filter(_.nonEmpty).limit(8).collect(java.util.stream.Collectors.toList[String]()))
    val kinds = (0 until relevant.size).map(relevant.get)
    val second = kinds.zipWithIndex.filter(_._1 == "analysis").drop(1).headOption.map(_._2)
    second.exists(i => !kinds.take(i).contains("immediate"))
  }
}
