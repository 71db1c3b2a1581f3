package io.colsem

import java.util.Properties

/**
 * What this jar was built for, read from `io/colsem/colsem-build.properties` (written by the
 * build from `jvm/versions.properties`). Plain Java APIs only: this runs inside the version guard,
 * possibly on a Spark/Scala line the jar was not compiled for.
 */
final case class BuildInfo(colsemVersion: String, sparkVersion: String, sparkLine: String,
    scalaBinary: String, pysparkSupported: String)

object BuildInfo {
  val ResourcePath = "io/colsem/colsem-build.properties"

  lazy val current: BuildInfo = load(classOf[BuildInfo].getClassLoader)

  def load(loader: ClassLoader): BuildInfo = {
    val props = new Properties()
    val in = loader.getResourceAsStream(ResourcePath)
    if (in == null) {
      throw new IllegalStateException(
        s"$ResourcePath is missing from the colsem jar: rebuild it with `make jar`.")
    }
    try props.load(in) finally in.close()
    def required(key: String): String = {
      val value = props.getProperty(key)
      if (value == null || value.trim.isEmpty) {
        throw new IllegalStateException(s"$ResourcePath has no value for '$key': rebuild the jar.")
      }
      value.trim
    }
    BuildInfo(required("colsem.version"), required("spark.version"), required("spark.line"),
      required("scala.binary"), required("pyspark.supported"))
  }
}
