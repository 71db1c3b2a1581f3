// sbt build of the same sources `pip install .` compiles (buildtools/build_jar.py), for JVM
// developers.
// One Spark line per sbt run, chosen by -Dcolsem.line=<line> (or COLSEM_LINE; default: default.line
// in jvm/versions.properties):
//   make sbt-test [SPARK=3.5]  runs the ScalaTest suites (sbt test) on that line
//   make publish-local         publishes io.github.colsem:colsem-spark-<line>_<scala> for each line
// Versions, Scala and shim folders come from jvm/versions.properties (line.<line>.*); source
// folders and scalac options from jvm/compile.properties (both read by
// buildtools/build_versions.py too); the POM is `buildtools/maven_bundle.py --pom <line>`'s.
// Spark's classes come from that line's pyspark distribution (Spark 4.3.0 is not on Maven
// Central), found or downloaded by `buildtools/spark_jars.py <line>` (both run with
// $COLSEM_PYTHON, default python3), or taken from $COLSEM_SPARK_JARS_<line, '_' for '.'> or
// $COLSEM_SPARK_JARS when they hold it.
import java.util.Properties

def loadProperties(path: String): Properties = {
  val props = new Properties()
  IO.load(props, file(path))
  props
}
val versions: Properties = loadProperties("jvm/versions.properties")
def v(key: String): String = Option(versions.getProperty(key)).map(_.trim)
  .getOrElse(sys.error(s"jvm/versions.properties has no $key"))
val compileInfo: Properties = loadProperties("jvm/compile.properties")
def c(key: String): Seq[String] = Option(compileInfo.getProperty(key)).toSeq
  .flatMap(_.trim.split("\\s+")).filter(_.nonEmpty)
def cdir(key: String): String = c(key).headOption
  .getOrElse(sys.error(s"jvm/compile.properties has no $key"))

val sparkLine: String = {
  val line = sys.props.get("colsem.line").orElse(sys.env.get("COLSEM_LINE")).map(_.trim)
    .filter(_.nonEmpty).getOrElse(v("default.line"))
  if (!v("lines").split(",").map(_.trim).contains(line)) {
    sys.error(s"colsem.line=$line is not one of lines=${v("lines")} in jvm/versions.properties")
  }
  line
}
def lv(key: String): String = v(s"line.$sparkLine.$key")
val scalaBinary = lv("scala.binary")
val sparkVersion = lv("spark.version")
val shimFolders: Seq[String] = lv("shims").split(",").map(_.trim).filter(_.nonEmpty).toSeq

lazy val sparkJars =
  taskKey[Seq[File]]("Spark's jars of the chosen line, from its pyspark distribution")

// -Dcolsem.testedJar=<jar>: the ScalaTest suites run against that jar (the package's, which
// buildtools/build_jar.py compiled from the same sources) instead of compiling the main sources a
// second time: `make test` and `make test-line` test the jar users get.
val testedJar: Option[File] =
  sys.props.get("colsem.testedJar").map(_.trim).filter(_.nonEmpty).map { path =>
    if (!file(path).isFile) sys.error(s"colsem.testedJar=$path is not a file")
    file(path)
  }

lazy val root = (project in file("."))
  .settings(
    organization := v("maven.group"),
    name := s"colsem-spark-$sparkLine",
    moduleName := name.value,
    version := v("colsem.version"),
    scalaVersion := lv("scala.version"),
    // One output folder per line: switching lines never mixes two Scala versions' classes.
    target := baseDirectory.value / "target" / s"spark-$sparkLine",
    // Spark provides the Scala library at run time; keeping it out of the POM lets
    // `spark-submit --packages` resolve the colsem jar alone.
    autoScalaLibrary := false,
    Compile / scalaSource := baseDirectory.value / cdir("sources.dir"),
    Compile / unmanagedSourceDirectories ++=
      shimFolders.map(name => baseDirectory.value / cdir("shims.dir") / name),
    Compile / resourceDirectory := baseDirectory.value / cdir("resources.dir"),
    Compile / packageBin / mappings ++= c("meta-inf.files")
      .map(name => baseDirectory.value / name -> s"META-INF/$name"),
    Test / scalaSource := baseDirectory.value / "jvm" / "src" / "test" / "scala",
    Test / resourceDirectory := baseDirectory.value / "jvm" / "src" / "test" / "resources",
    Compile / resourceGenerators += Def.task {
      val out = (Compile / resourceManaged).value / "io" / "colsem" / "colsem-build.properties"
      val values = Seq(
        "colsem.version" -> v("colsem.version"),
        "spark.version" -> sparkVersion,
        "spark.line" -> sparkLine,
        "scala.binary" -> scalaBinary,
        "pyspark.supported" -> lv("pyspark.supported"))
      IO.write(
        out,
        values.map { case (k, x) => s"$k=$x" }.mkString("", "\n", "\nsource.fingerprint=sbt\n"))
      Seq(out)
    }.taskValue,
    sparkJars := {
      val core = s"spark-core_$scalaBinary-$sparkVersion.jar"
      val dir = Seq(s"COLSEM_SPARK_JARS_${sparkLine.replace('.', '_')}", "COLSEM_SPARK_JARS")
        .flatMap(sys.env.get).map(file).find(d => (d / core).isFile)
        .getOrElse {
          // spark_jars.py knows where each line's jars are (installed pyspark, ~/.cache/colsem) and
          // downloads that line's pyspark from PyPI when they are nowhere.
          val python = sys.env.getOrElse("COLSEM_PYTHON", "python3")
          val script = (baseDirectory.value / "buildtools" / "spark_jars.py").toString
          file(scala.sys.process.Process(Seq(python, script, sparkLine)).!!.trim)
        }
      if (!(dir / core).isFile) sys.error(s"$dir does not hold Spark $sparkVersion ($core).")
      (dir * "*.jar").get
    },
    Compile / unmanagedJars ++= sparkJars.value.classpath,
    Test / unmanagedJars ++= testedJar.toSeq.classpath ++ sparkJars.value.classpath,
    Compile / sources := (if (testedJar.isDefined) Nil else (Compile / sources).value),
    Compile / resources := (if (testedJar.isDefined) Nil else (Compile / resources).value),
    libraryDependencies += "org.scalatest" %% "scalatest" % v("scalatest.version") % Test,
    scalacOptions ++= c("scalac.options") ++ c(s"scalac.options.$scalaBinary"),
    Test / fork := true,
    Test / javaOptions ++= Seq(
      "-Xmx2g",
      "-Dspark.ui.enabled=false",
      s"-Dspark.sql.warehouse.dir=${target.value / "spark-warehouse"}") ++ Seq(
      "java.lang",
      "java.lang.invoke",
      "java.lang.reflect",
      "java.io",
      "java.net",
      "java.nio",
      "java.util",
      "java.util.concurrent",
      "java.util.concurrent.atomic",
      "sun.nio.ch",
      "sun.nio.cs",
      "sun.security.action",
      "sun.util.calendar").map(p => s"--add-opens=java.base/$p=ALL-UNNAMED"),
    Test / parallelExecution := false,
    Compile / packageDoc / publishArtifact := false,
    publishMavenStyle := true,
    // `make test` republishes the same version on every run; the local repository must take it.
    publishM2Configuration := publishM2Configuration.value.withOverwrite(true),
    // The POM is buildtools/maven_bundle.py's, the one the wheel's Maven bundles carry (one writer
    // for both); its coordinates must be the ones sbt publishes under, or the build stops.
    makePom := {
      val out = makePomConfiguration.value.file.get
      val python = sys.env.getOrElse("COLSEM_PYTHON", "python3")
      val script = (baseDirectory.value / "buildtools" / "maven_bundle.py").toString
      val text = scala.sys.process.Process(Seq(python, script, "--pom", sparkLine)).!!
      val written = Seq("groupId", "artifactId", "version")
        .map(e => s"<$e>(.*?)</$e>".r.findFirstMatchIn(text).map(_.group(1)).getOrElse(""))
      val published =
        Seq(organization.value, s"${moduleName.value}_${scalaBinaryVersion.value}", version.value)
      if (written != published) {
        sys.error(s"buildtools/maven_bundle.py's POM says ${written.mkString(":")}; " +
          s"sbt publishes ${published.mkString(":")}")
      }
      IO.write(out, text)
      out
    })
