package io.colsem.jar

import java.util.Properties

/**
 * What this jar was built for, read from `io/colsem/colsem-build.properties` (written by the
 * build from `jvm/versions.properties`). This runs inside the version guard, possibly on a
 * Spark/Scala line the jar was not compiled for, so it links only what exists on Scala 2.12 and
 * 2.13 alike: a plain class (a case class extends `scala.Serializable` on 2.12, which 2.13 does
 * not have), Java APIs, and `+` for strings (2.12 compiles `s"..."` into collection calls whose
 * signatures changed in 2.13).
 */
final class BuildInfo(
    val colsemVersion: String,
    val sparkVersion: String,
    val sparkLine: String,
    val scalaBinary: String,
    val pysparkSupported: String)

object BuildInfo {
  val ResourcePath = "io/colsem/colsem-build.properties"

  lazy val current: BuildInfo = load(classOf[BuildInfo].getClassLoader)

  def apply(
      colsemVersion: String,
      sparkVersion: String,
      sparkLine: String,
      scalaBinary: String,
      pysparkSupported: String): BuildInfo =
    new BuildInfo(colsemVersion, sparkVersion, sparkLine, scalaBinary, pysparkSupported)

  def load(loader: ClassLoader): BuildInfo = {
    val props = new Properties()
    val in = loader.getResourceAsStream(ResourcePath)
    if (in == null) {
      throw new IllegalStateException(
        ResourcePath + " is missing from the colsem jar: rebuild it with `make jar`.")
    }
    try props.load(in)
    finally in.close()
    new BuildInfo(
      required(props, "colsem.version"),
      required(props, "spark.version"),
      required(props, "spark.line"),
      required(props, "scala.binary"),
      required(props, "pyspark.supported"))
  }

  private def required(props: Properties, key: String): String = {
    val value = props.getProperty(key)
    if (value == null || value.trim.isEmpty) {
      throw new IllegalStateException(
        ResourcePath + " has no value for '" + key + "': rebuild the jar.")
    }
    value.trim
  }
}
