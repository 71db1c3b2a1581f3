package io.colsem.invariants

import java.lang.ref.WeakReference
import java.util.{Collections, IdentityHashMap, WeakHashMap}
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger, AtomicReference}

import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.{Command, CommandResult, LogicalPlan}
import org.apache.spark.sql.execution.colsem.RunningQuery
import org.apache.spark.sql.internal.SQLConf

import io.colsem.errors.ColsemErrors
import io.colsem.settings.ColsemConf
import io.colsem.vocabulary.UserQueries

/**
 * What one query's checks share across its phases. Spark runs a query's analysis, optimization and
 * planning as separate phases of one QueryExecution, and the only handle on "this query" that all
 * of them see is the QueryExecution id Spark sets as a thread-local property around each phase.
 * The record holds its plans weakly: the QueryExecution holds them strongly for as long as anyone
 * can still run the query.
 */
final class QueryRecord(analyzed: LogicalPlan) {
  private val analyzedRef = new WeakReference(analyzed)
  private val optimizedRef = new AtomicReference[WeakReference[LogicalPlan]]()
  private val physicalChecked = new AtomicBoolean(false)
  private val rowsChecked = new AtomicBoolean(false)
  private val reported = ConcurrentHashMap.newKeySet[String]()
  @volatile private var optimizedNodes: java.util.Set[LogicalPlan] = _

  def analyzedPlan: Option[LogicalPlan] = Option(analyzedRef.get)

  def optimizedPlan: Option[LogicalPlan] = Option(optimizedRef.get).flatMap(r => Option(r.get))

  def isCollected: Boolean = analyzedRef.get == null

  /** The first optimized plan planned for this query is the query's own; later ones are its
   *  subqueries' and adaptive re-planning's. True for the first. */
  def claimOptimized(plan: LogicalPlan): Boolean =
    optimizedRef.compareAndSet(null, new WeakReference(plan))

  /** Whether the query's optimized plan has been planned (and checked). */
  def isPlanned: Boolean = optimizedRef.get != null

  /** Whether `node` is a node of this query's optimized plan (not of a subquery's), by identity. */
  def isOptimizedNode(node: LogicalPlan): Boolean = {
    if (optimizedNodes == null) {
      val nodes = Collections.newSetFromMap(new IdentityHashMap[LogicalPlan, java.lang.Boolean]())
      optimizedPlan.foreach(_.foreach(n => nodes.add(n)))
      optimizedNodes = nodes
    }
    optimizedNodes.contains(node)
  }

  /** The error a check failed this query with (invariants=error). Spark 3.5 keeps no failure of
   *  a lazily planned phase: planning that failed once (for the UI's plan description, which
   *  swallows the error) runs again for the action, and must fail again, not pass unchecked. */
  private val failure = new AtomicReference[Throwable]()

  def failWith(e: Throwable): Throwable = { failure.compareAndSet(null, e); e }

  def rethrowFailure(): Unit = Option(failure.get).foreach(e => throw e)

  def claimPhysicalCheck(): Boolean = physicalChecked.compareAndSet(false, true)

  def claimRowCheck(): Boolean = rowsChecked.compareAndSet(false, true)

  /** True the first time a violation is seen for this query: warnings are logged once per query. */
  def firstReport(v: Violation): Boolean = reported.add(v.toString)

  /** A violation was reported: later phases then skip their checks, which would only report the
   *  same change again as seen from further down the pipeline. */
  def hasReported: Boolean = !reported.isEmpty
}

object Invariants extends Logging {
  sealed trait Mode
  case object Off extends Mode
  case object Warn extends Mode
  case object Error extends Mode

  /** The mode in `conf`. A bad value counts as off here: ValidateColsemConf fails every query but
   *  SET/RESET with it, and those must keep working (they are planned too). */
  def mode(conf: SQLConf): Mode =
    if (!ColsemConf.isEnabled(conf)) Off
    else ColsemConf.InvariantsMode.readFrom(conf) match {
      case "warn" => Warn
      case "error" => Error
      case _ => Off
    }

  private val records = new ConcurrentHashMap[Long, QueryRecord]()

  /** Before 4.2: the record made when a query's analysis ended (its analysis checks report into
   *  it, once per query), found again by the analyzed plan when the query is planned. Weak keys:
   *  the QueryExecution holds the plan for as long as the query can run. */
  private val byAnalyzedPlan =
    Collections.synchronizedMap(new WeakHashMap[LogicalPlan, QueryRecord]())
  private val registrations = new AtomicInteger()

  def queryId(session: SparkSession): Option[Long] = RunningQuery.id(session)

  /** Records the analyzed plan of the query being analyzed; its record, if any. On 4.2 and later
   *  under the query's id: analysis of a view or subquery inside the query runs under the same id
   *  and finishes first, so the query's own plan is recorded last. Analyses under the id after
   *  the query was planned are not the query's (Spark resolving the row encoder of `collect`, which
   *  a recursive CTE's loop runs per iteration) and keep its record. Before 4.2 under the plan. */
  def registerAnalyzed(session: SparkSession, analyzed: LogicalPlan): Option[QueryRecord] =
    if (!RunningQuery.idDuringAnalysis) {
      Some(byAnalyzedPlan.computeIfAbsent(analyzed, (p: LogicalPlan) => new QueryRecord(p)))
    } else queryId(session).map { id =>
      val record = records.merge(
        id,
        new QueryRecord(analyzed),
        (existing: QueryRecord, fresh: QueryRecord) => if (existing.isPlanned) existing else fresh)
      collectGarbage()
      record
    }

  /** The running query's record. Where analysis is not tied to a query id (before 4.2), it is
   *  found when the query's planning first asks, by the analyzed plan of its QueryExecution, for
   *  the plans the analysis check would have recorded: queries, not commands (a command runs
   *  eagerly in a QueryExecution of its own, which analysis never marks on 4.2+ either). */
  def record(session: SparkSession): Option[QueryRecord] =
    queryId(session).flatMap { id =>
      Option(records.get(id)).orElse(RunningQuery.analyzedPlan(session).filter(isQuery).map {
        analyzed =>
          val fresh = Option(byAnalyzedPlan.get(analyzed)).getOrElse(new QueryRecord(analyzed))
          val existing = records.putIfAbsent(id, fresh)
          if (existing == null) { collectGarbage(); fresh }
          else existing
      })
    }

  private def isQuery(analyzed: LogicalPlan): Boolean = analyzed match {
    case _: Command | _: CommandResult => false
    case other => !UserQueries.changesConf(other)
  }

  private def collectGarbage(): Unit =
    if (registrations.incrementAndGet() % 256 == 0) {
      records.entrySet().removeIf(_.getValue.isCollected)
    }

  /** `error`: throws the violation as a Spark-style error. `warn`: logs it once per query. */
  def report(conf: SQLConf, record: Option[QueryRecord], violation: Violation): Unit =
    mode(conf) match {
      case Error =>
        val e = ColsemErrors.error(violation.errorClass, violation.parameters)
        throw record.map(_.failWith(e)).getOrElse(e)
      case Warn if record.forall(_.firstReport(violation)) =>
        logWarning(ColsemErrors.message(violation.errorClass, violation.parameters))
      case _ =>
    }

}
