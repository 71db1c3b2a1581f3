package io.colsem.jar

import java.io.File
import java.nio.file.Files

import org.scalatest.funsuite.AnyFunSuite

import io.colsem.jar.ExecutorJar.{AlreadyThere, CannotShip, LocalMode, Ship}

class ExecutorJarSuite extends AnyFunSuite {

  private val dir = Files.createTempDirectory("colsem-executor-jar").toFile
  private val jar = new File(dir, "colsem-spark-4.3_2.13-0.1.0.jar")
  jar.createNewFile()
  private val sparkJars = Files.createTempDirectory("spark-jars").toFile

  private def decide(
      added: Seq[String] = Nil,
      extraClassPath: Option[String] = None,
      location: File = jar,
      isLocal: Boolean = false) =
    ExecutorJar.decide(isLocal, Some(location.toURI), Some(sparkJars), added, extraClassPath)

  test("in local mode the executor is the driver's JVM") {
    assert(decide(isLocal = true) === LocalMode)
  }

  test("a jar on the driver's class path only is shipped") {
    assert(decide() === Ship(jar))
    assert(decide(added = Seq("spark://192.0.2.2:7077/jars/other.jar")) === Ship(jar))
  }

  test("a jar given with --jars, spark.jars or --packages is not shipped again") {
    assert(decide(added = Seq(s"spark://192.0.2.2:40123/jars/${jar.getName}")) ===
      AlreadyThere("added to the SparkContext"))
    assert(
      decide(added = Seq(s"file:${jar.getPath}")) === AlreadyThere("added to the SparkContext"))
  }

  test("spark.executor.extraClassPath naming the jar or its folder") {
    assert(decide(extraClassPath =
      Some(s"/opt/x.jar${File.pathSeparator}/opt/lib/${jar.getName}")) ===
      AlreadyThere("on spark.executor.extraClassPath"))
    assert(decide(extraClassPath = Some(s"${dir.getPath}/*")) === AlreadyThere(
      "on spark.executor.extraClassPath"))
    assert(decide(extraClassPath = Some("/opt/other/*")) === Ship(jar))
  }

  test("a jar installed among Spark's own jars is on every node") {
    val installed = new File(sparkJars, jar.getName)
    installed.createNewFile()
    assert(decide(location = installed) === AlreadyThere("installed among Spark's jars"))
  }

  test("classes outside a jar file cannot be shipped") {
    assert(decide(location = dir) === CannotShip(dir.toURI.toString))
    assert(ExecutorJar.decide(isLocal = false, None, None, Nil, None) === CannotShip(
      "an unknown location"))
  }
}
