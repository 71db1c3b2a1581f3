package io.colsem.star

/** The DataFrame call that built the projection under analysis, as [[DataFrameCalls.current]]
 *  finds it on the stack: what its resolved projection means for hidden columns. */
sealed trait DataFrameCall

object DataFrameCall {

  /** `drop(names)`: every column but the named ones, carried over. */
  case object DropByName extends DataFrameCall

  /** `to(schema)`: the columns the schema names, a choice. */
  case object ToSchema extends DataFrameCall

  /** `na.fill(value)` / `na.replace("*", ...)`: every matching column rewritten in place, none
   *  named. */
  case object RewriteAll extends DataFrameCall

  /** `na.fill(value, cols)`, `na.fill(map)`, `na.replace(cols, ...)`: the named columns rewritten,
   *  the others carried over. */
  case object RewriteNamed extends DataFrameCall

  /** `na.fill(value)` or `na.fill(value, cols)` as Spark Connect's planner calls it
   *  (`fillValue(value, Option(cols))`), whose frame does not say which: the projection does
   *  ([[MarkCarriedColumns]]). */
  case object RewriteOfKind extends DataFrameCall
}

/**
 * Which DataFrame call is running on this thread, read from the stack (java.lang.StackWalker):
 * `Dataset.drop(String...)`, `to` and `DataFrameNaFunctions.fill`/`replace` build a projection of
 * already-resolved columns, which after analysis looks like a user's `select` of the same columns;
 * only the call that built it tells them apart. Innermost frame wins (`na.fill` selects through
 * `Dataset.select`); Spark Connect's planner calls `fillValue` directly (4.x), which is read only
 * where no public `fill` frame is on the stack. Read only for a resolved projection of a plan not
 * parsed from SQL text.
 */
object DataFrameCalls {

  private val Datasets = Set("org.apache.spark.sql.classic.Dataset", "org.apache.spark.sql.Dataset")
  private val NaFunctions = Set(
    "org.apache.spark.sql.classic.DataFrameNaFunctions",
    "org.apache.spark.sql.DataFrameNaFunctions")

  /** The (class, method) frames this reads, for a test that checks each exists on every line
   *  (tests/test_spark_internals.py). */
  val Frames: Seq[(String, String)] =
    Datasets.toSeq.sorted.flatMap(c => Seq(c -> "drop", c -> "to")) ++
      NaFunctions.toSeq.sorted.flatMap(c => Seq(c -> "fill", c -> "replace"))

  private val ConnectFill = "fillValue"

  /** `java.util.List` view of [[Frames]] as "class#method", for the test through py4j. */
  def framesForTest: java.util.List[String] = {
    val out = new java.util.ArrayList[String]()
    Frames.foreach { case (c, m) => out.add(s"$c#$m") }
    out
  }

  def current(): Option[DataFrameCall] = {
    val walker = java.lang.StackWalker.getInstance()
    val found = walker.walk[java.util.Optional[java.lang.StackWalker.StackFrame]](frames =>
      frames.filter(f => isCall(f.getClassName, f.getMethodName)).findFirst())
    if (found.isPresent) Some(classify(found.get))
    else if (walker.walk[java.lang.Boolean](_.anyMatch(isConnectFill))) {
      Some(DataFrameCall.RewriteOfKind)
    } else None
  }

  private def isConnectFill(f: java.lang.StackWalker.StackFrame): Boolean =
    NaFunctions.contains(f.getClassName) && f.getMethodName == ConnectFill &&
      f.getDescriptor.startsWith("(Ljava/lang/Object;Lscala/Option;)")

  private def isCall(cls: String, method: String): Boolean =
    (Datasets.contains(cls) && (method == "drop" || method == "to")) ||
      (NaFunctions.contains(cls) && (method == "fill" || method == "replace"))

  private def classify(frame: java.lang.StackWalker.StackFrame): DataFrameCall =
    frame.getMethodName match {
      case "drop" => DataFrameCall.DropByName
      case "to" => DataFrameCall.ToSchema
      case method => if (namesColumns(method, frame.getDescriptor)) DataFrameCall.RewriteNamed
        else DataFrameCall.RewriteAll
    }

  /** Whether the called `fill`/`replace` overload takes the columns it rewrites: a collection of
   *  names, or a map from name to value (`fill(valueMap)`). `replace(col, map)` names one column
   *  unless it is "*", which only the arguments say; PySpark passes "*" for every column and a
   *  list otherwise. */
  private def namesColumns(method: String, descriptor: String): Boolean = {
    val params = descriptor.substring(1, descriptor.indexOf(')'))
    method match {
      case "fill" =>
        params.contains("Lscala/collection/") || params.contains("[Ljava/lang/String;") ||
        params.contains("Ljava/util/Map;")
      case _ => !params.startsWith("Ljava/lang/String;")
    }
  }
}
