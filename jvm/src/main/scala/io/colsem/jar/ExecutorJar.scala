package io.colsem.jar

import java.io.File
import java.net.URI
import java.util.{Collections, WeakHashMap}

import org.apache.spark.SparkContext
import org.apache.spark.internal.Logging

import io.colsem.errors.ColsemErrors

/**
 * Makes colsem's classes loadable on a cluster's executors before a query runs colsem code in its
 * tasks (only `spark.colsem.invariants`' row check does; everything else colsem does happens on
 * the driver).
 *
 * A jar given with `--driver-class-path` only is on the driver and nowhere else: colsem is active,
 * and a task that runs colsem code dies on every executor with a ClassCastException about a
 * SerializedLambda, retried until the job fails. So the first time a query needs colsem code on
 * executors, colsem ships its own jar with `SparkContext.addJar`, as `--jars` would have done,
 * unless the executors already have it. Where it cannot, the query fails with
 * COLSEM_JAR_NOT_ON_EXECUTORS, saying how to ship the jar, before any task starts.
 */
object ExecutorJar extends Logging {

  /** Why executors already load colsem's classes, or why colsem must ship its jar. */
  sealed trait Decision
  case object LocalMode extends Decision
  final case class AlreadyThere(why: String) extends Decision
  final case class Ship(jar: File) extends Decision
  final case class CannotShip(location: String) extends Decision

  private val checked =
    Collections.synchronizedMap(new WeakHashMap[SparkContext, java.lang.Boolean]())

  /** Before planning colsem code into tasks: ships the jar where needed, once per SparkContext.
   *  `feature` names what needs it, for the log line and the error. */
  def ensureOnExecutors(sc: SparkContext, feature: String): Unit =
    if (!checked.containsKey(sc)) synchronized { if (!checked.containsKey(sc)) ship(sc, feature) }

  private def ship(sc: SparkContext, feature: String): Unit = {
    val decision = decide(
      isLocal = sc.isLocal,
      location = Option(getClass.getProtectionDomain.getCodeSource).map(_.getLocation.toURI),
      sparkJarsDir = Option(classOf[SparkContext].getProtectionDomain.getCodeSource)
        .map(s => new File(s.getLocation.toURI).getParentFile),
      addedJars = sc.listJars(),
      executorClassPath = sc.getConf.getOption("spark.executor.extraClassPath"))
    decision match {
      case LocalMode | AlreadyThere(_) =>
      case Ship(jar) =>
        sc.addJar(jar.getPath)
        if (!decide(isLocal = false, Some(jar.toURI), None, sc.listJars(), None).isInstanceOf[
              AlreadyThere]) {
          throw ColsemErrors.jarNotOnExecutors(
            jar.getPath,
            sc.master,
            feature,
            "SparkContext.addJar did not add it")
        }
        logInfo(
          s"colsem's jar ${jar.getPath} was on the driver's class path only; $feature runs " +
            "colsem code in tasks, so colsem shipped the jar to the executors " +
            "(SparkContext.addJar). Pass it with --jars (spark.jars) or --packages to ship it " +
            "from the start.")
      case CannotShip(location) =>
        throw ColsemErrors.jarNotOnExecutors(
          location,
          sc.master,
          feature,
          "its classes are not in a jar file colsem can ship")
    }
    checked.put(sc, java.lang.Boolean.TRUE)
  }

  /**
   * Whether executors load colsem's classes by themselves. `location` is where the driver loaded
   * them from; executors have them when the jar was added (`--jars`, `spark.jars`, `--packages`,
   * `addJar`: [[SparkContext.listJars]] lists it by its file name), is on
   * `spark.executor.extraClassPath`, or sits among Spark's own jars (installed with Spark on every
   * node). In local mode the executor is the driver's JVM.
   */
  def decide(
      isLocal: Boolean,
      location: Option[URI],
      sparkJarsDir: Option[File],
      addedJars: Seq[String],
      executorClassPath: Option[String]): Decision = {
    if (isLocal) return LocalMode
    val jar = location.filter(_.getScheme == "file").map(new File(_)).filter(f =>
      f.isFile && f.getName.endsWith(".jar"))
    jar match {
      case None => CannotShip(location.map(_.toString).getOrElse("an unknown location"))
      case Some(file) =>
        val name = file.getName
        def fileName(entry: String): String = entry.split('/').last
        val onClassPath =
          executorClassPath.toSeq.flatMap(_.split(File.pathSeparator)).exists { entry =>
            val e = entry.trim
            fileName(e) == name || new File(
              e.stripSuffix("*")).getAbsoluteFile == file.getParentFile.getAbsoluteFile
          }
        if (addedJars.exists(j => fileName(j) == name)) AlreadyThere("added to the SparkContext")
        else if (onClassPath) AlreadyThere("on spark.executor.extraClassPath")
        else if (sparkJarsDir.exists(_.getAbsoluteFile == file.getParentFile.getAbsoluteFile)) {
          AlreadyThere("installed among Spark's jars")
        } else Ship(file)
    }
  }
}
