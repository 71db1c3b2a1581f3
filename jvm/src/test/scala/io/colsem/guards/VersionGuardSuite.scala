package io.colsem.guards

import org.scalatest.funsuite.AnyFunSuite

import io.colsem.jar.BuildInfo

class VersionGuardSuite extends AnyFunSuite {
  private val built = BuildInfo("0.1.0", "4.3.0", "4.3", "2.13", ">=4.3.0,<4.4")

  test("major.minor of Spark and Scala versions") {
    assert(VersionGuard.majorMinor("4.3.0") === "4.3")
    assert(VersionGuard.majorMinor("3.5.8") === "3.5")
    assert(VersionGuard.majorMinor("4.3.0-SNAPSHOT") === "4.3")
    assert(VersionGuard.majorMinor("2.13.18") === "2.13")
    assert(VersionGuard.majorMinor("4") === "4")
  }

  test("the built line passes, whatever the patch version") {
    assert(VersionGuard.mismatch(built, "4.3.0", "2.13.18").isEmpty)
    assert(VersionGuard.mismatch(built, "4.3.2", "2.13.16").isEmpty)
  }

  test("another Spark line is refused with both versions named") {
    val problem = VersionGuard.mismatch(built, "3.5.8", "2.12.18").get
    assert(problem.startsWith("[COLSEM_INCOMPATIBLE_SPARK] colsem 0.1.0 was built for Spark 4.3 " +
      "(Scala 2.13) but this is Spark 3.5.8 (Scala 2.12.18)."))
    assert(problem.contains("injected nothing"))
    assert(VersionGuard.mismatch(built, "4.2.1", "2.13.18").get.contains("Spark 4.2.1"))
  }

  test("another Scala binary version is refused") {
    assert(VersionGuard.mismatch(built, "4.3.0", "2.12.18").get.contains("(Scala 2.12.18)"))
  }

  test("the jar's build properties describe the compiled line") {
    val info = BuildInfo.current
    assert(info.sparkLine === VersionGuard.majorMinor(info.sparkVersion))
    assert(VersionGuard.mismatch(
      info,
      VersionGuard.runningSpark,
      VersionGuard.runningScala).isEmpty)
  }
}
