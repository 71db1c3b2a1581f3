// sbt build of the same sources `pip install .` compiles (python/build_jar.py), for JVM developers:
//   make sbt-test       runs the ScalaTest suites (sbt test)
//   make publish-local  publishes io.github.colsem:colsem-spark-<line>_<scala> to ~/.m2 (sbt publishM2)
// Versions come from jvm/versions.properties. Spark's classes come from the installed pyspark
// wheel (Spark 4.3.0 is not on Maven Central): set COLSEM_SPARK_JARS to use another folder.
import java.util.Properties

val versions: Properties = {
  val props = new Properties()
  IO.load(props, file("jvm/versions.properties"))
  props
}
def v(key: String): String = Option(versions.getProperty(key)).map(_.trim)
  .getOrElse(sys.error(s"jvm/versions.properties has no $key"))

val sparkLine = v("spark.line")

lazy val sparkJars = taskKey[Seq[File]]("Spark's jars from the pyspark wheel (or COLSEM_SPARK_JARS)")

lazy val root = (project in file("."))
  .settings(
    organization := v("maven.group"),
    name := s"colsem-spark-$sparkLine",
    moduleName := name.value,
    version := v("colsem.version"),
    scalaVersion := v("scala.version"),
    // Spark provides the Scala library at run time; keeping it out of the POM lets
    // `spark-submit --packages` resolve the colsem jar alone.
    autoScalaLibrary := false,
    Compile / scalaSource := baseDirectory.value / "jvm" / "src" / "main" / "scala",
    Compile / unmanagedSourceDirectories ++= v(s"line.$sparkLine.shims").split(",").map(_.trim)
      .filter(_.nonEmpty).map(name => baseDirectory.value / "jvm" / "src" / "main" / "shims" / name).toSeq,
    Compile / resourceDirectory := baseDirectory.value / "jvm" / "src" / "main" / "resources",
    Test / scalaSource := baseDirectory.value / "jvm" / "src" / "test" / "scala",
    Test / resourceDirectory := baseDirectory.value / "jvm" / "src" / "test" / "resources",
    Compile / resourceGenerators += Def.task {
      val out = (Compile / resourceManaged).value / "io" / "colsem" / "colsem-build.properties"
      val keys = Seq("colsem.version", "spark.version", "spark.line", "scala.binary", "pyspark.supported")
      IO.write(out, keys.map(k => s"$k=${v(k)}").mkString("", "\n", "\nsource.fingerprint=sbt\n"))
      Seq(out)
    }.taskValue,
    sparkJars := {
      val dir = sys.env.get("COLSEM_SPARK_JARS").map(file).getOrElse {
        val venvLib = baseDirectory.value / ".venv" / "lib"
        val candidates = Option(venvLib.listFiles).toSeq.flatten.map(_ / "site-packages" / "pyspark" / "jars")
        candidates.find(_.isDirectory).getOrElse(sys.error(
          s"No pyspark jars in .venv: run `make venv` (pyspark==${v("spark.version")}) or set COLSEM_SPARK_JARS."))
      }
      val jars = (dir * "*.jar").get
      val core = jars.map(_.getName).find(_.startsWith("spark-core_"))
      if (!core.exists(_.contains(s"-${v("spark.version")}.jar"))) {
        sys.error(s"$dir does not hold Spark ${v("spark.version")} (found ${core.getOrElse("no spark-core")}).")
      }
      jars
    },
    Compile / unmanagedJars ++= sparkJars.value.classpath,
    Test / unmanagedJars ++= sparkJars.value.classpath,
    libraryDependencies += "org.scalatest" %% "scalatest" % v("scalatest.version") % Test,
    scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-unchecked", "-Werror"),
    Test / fork := true,
    Test / javaOptions ++= Seq("-Xmx2g", "-Dspark.ui.enabled=false",
      s"-Dspark.sql.warehouse.dir=${target.value / "spark-warehouse"}") ++ Seq(
      "java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio",
      "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "sun.nio.ch",
      "sun.nio.cs", "sun.security.action", "sun.util.calendar").map(p => s"--add-opens=java.base/$p=ALL-UNNAMED"),
    Test / parallelExecution := false,
    Compile / packageDoc / publishArtifact := false,
    publishMavenStyle := true,
    // `make test` republishes the same version on every run; the local repository must take it.
    publishM2Configuration := publishM2Configuration.value.withOverwrite(true),
    pomIncludeRepository := (_ => false),
    licenses := Seq("Apache-2.0" -> url("https://www.apache.org/licenses/LICENSE-2.0")),
    description := "colsem: column semantics for Apache Spark SQL (Spark extension)"
  )
