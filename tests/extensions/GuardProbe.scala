package io.colsem.probe

import org.apache.spark.internal.Logging
import org.apache.spark.sql.{SparkSessionExtensions, SparkSessionExtensionsProvider}

import io.colsem.guards.VersionGuard
import io.colsem.jar.BuildInfo

/** ColsemExtensions' guard path alone (what runs before anything line-specific), compiled by
 *  tests/test_version_matrix.py with another Scala line's compiler to run on this one. */
class GuardProbe extends SparkSessionExtensionsProvider with Logging {
  override def apply(extensions: SparkSessionExtensions): Unit =
    VersionGuard.mismatch(
      BuildInfo.current,
      VersionGuard.runningSpark,
      VersionGuard.runningScala) match {
      case Some(problem) => VersionGuard.report(problem)
      case None => logInfo("guard probe: the lines match")
    }
}
