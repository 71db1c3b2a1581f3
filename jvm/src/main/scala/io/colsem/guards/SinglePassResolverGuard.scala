package io.colsem.guards

import java.util.concurrent.atomic.AtomicBoolean

import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

import io.colsem.errors.ColsemErrors
import io.colsem.settings.ColsemConf
import io.colsem.shims.SparkShims
import io.colsem.vocabulary.UserQueries

/**
 * Check rule: Spark 4's single-pass analyzer runs injected resolution rules zero times, so under it
 * colsem would silently do nothing. Check rules still run there, so this is where it is noticed:
 * one warning per session, or an error per query when the user asked for that.
 */
class SinglePassResolverGuard(session: SparkSession) extends (LogicalPlan => Unit) with Logging {
  private val warned = new AtomicBoolean(false)

  override def apply(plan: LogicalPlan): Unit = {
    val conf = session.sessionState.conf
    if (UserQueries.isUserQuery(plan) && ColsemConf.isEnabled(conf) &&
        SparkShims.singlePassResolverEnabled(conf)) {
      ColsemConf.SinglePassResolverPolicy.readFrom(conf) match {
        case "error" => throw ColsemErrors.singlePassResolverActive()
        case _ if warned.compareAndSet(false, true) =>
          logWarning(ColsemErrors.message("COLSEM_SINGLE_PASS_RESOLVER", Map.empty))
        case _ =>
      }
    }
  }
}
