package io.colsem

import java.util.{Collections, WeakHashMap}

import org.apache.spark.internal.Logging
import org.apache.spark.sql.{SparkSessionExtensions, SparkSessionExtensionsProvider}

import io.colsem.errors.ColsemErrors
import io.colsem.guards.{FixedPointRoute, SinglePassMode, SinglePassResolverGuard, VersionGuard}
import io.colsem.jar.BuildInfo
import io.colsem.settings.{ColsemConf, ValidateColsemConf}
import io.colsem.shims.SparkShims
import io.colsem.status.StatusTableFunction

/**
 * colsem's entry point, reached through `spark.sql.extensions=io.colsem.ColsemExtensions` or the
 * ServiceLoader entry in META-INF/services. Every injection colsem makes is listed in [[inject]].
 */
class ColsemExtensions extends SparkSessionExtensionsProvider with Logging {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    val built = BuildInfo.current
    VersionGuard.mismatch(built, VersionGuard.runningSpark, VersionGuard.runningScala) match {
      case Some(problem) =>
        VersionGuard.report(problem) // no Logging here: see VersionGuard on the other Scala line
      case None if ColsemExtensions.markApplied(extensions) =>
        inject(extensions)
        logInfo(s"colsem ${built.colsemVersion} active (built for Spark ${built.sparkLine}, " +
          s"Scala ${built.scalaBinary}; running Spark ${VersionGuard.runningSpark}). " +
          s"SELECT * FROM ${StatusTableFunction.Name}() shows its settings.")
      case None =>
      // Reached a second time through the other way in (config and ServiceLoader together).
    }
  }

  private def inject(extensions: SparkSessionExtensions): Unit = {
    // Not an injection, but needed by all of them: SQLSTATEs for colsem's error classes.
    SparkShims.registerErrorConditions(
      getClass.getClassLoader.getResource(ColsemErrors.ConditionsResource))
    // SQL-visible status, so any client (Connect, JDBC, spark-sql) can tell colsem is active.
    extensions.injectTableFunction(StatusTableFunction.description)
    // Rules on the unresolved plan, in this order (Spark 4's Hints batch; on 3.5, which has no
    // such injection point, applied to each parsed statement: see SparkShims).
    naming.NamingDialect.registerForViews()
    // A view created with aliases read in WHERE or subqueries reads its text back with them.
    ColsemConf.LateralAliasExtraScopes.registerForViews()
    // Spark's single-pass resolver runs none of colsem's rules: a statement that needs them and
    // that the single-pass resolver fails on before any check rule goes to the fixed-point
    // analyzer from the parser, before Spark chooses (or is refused there under forced mode).
    if (SinglePassMode.exists) {
      extensions.injectParser((session, parser) =>
        FixedPointRoute.parser(session, parser, lca.MarkLateralAliasCandidates.marksAny))
    }
    SparkShims.injectPreResolutionRules(
      extensions,
      Seq(
        // ...whose hint goes again before any other rule reads the plan.
        _ => FixedPointRoute.Unmark,
        // Lateral column aliases: hide alias names from Spark's one-level-per-iteration support.
        _ => lca.MarkLateralAliasCandidates,
        // Output naming dialects: unaliased items get their dialect's name before Resolution, so
        // outer queries resolve against those names (after the lateral-alias marks, which read only
        // user aliases).
        session => new naming.NameUnaliasedItems(session),
        // SELECT * strategies: mark stars before Spark expands them, to leave hidden columns out.
        session => new star.MarkColumnHidingStars(session),
        // ...and tag what DataFrame calls carry over from their input, which stays hidden.
        _ => star.MarkCarriedColumns,
        // ...and mark a DataFrame write's own query before Spark fills the columns it leaves out.
        _ => star.MarkWrittenQueries,
        // ...and hold back the source of a MERGE with UPDATE SET * / INSERT * until it is checked.
        _ => star.HoldStarMergeSources))
    // Rules in Spark's Resolution fixed point (after Spark's own, every iteration): only what
    // changes the plan for a later iteration to build on, or must see it before Spark's post-hoc
    // rules do. Each returns at once, on a flag or a pattern bit, for a plan with nothing of its
    // feature.
    // Lateral column aliases: resolve every level of them at once, each alias computed once; the
    // aliases' columns must exist before Spark resolves what reads them.
    extensions.injectResolutionRule(session => new lca.ResolveLateralAliases(session))
    // Naming: a resolved SELECT list's named items become Spark's Aliases with the dialect's names,
    // which outer queries (and a CTE's readers) then resolve against.
    extensions.injectResolutionRule(_ => naming.ResolveDialectAliases)
    // Naming: under `sqlite`, the outermost list's bare columns take their declared names (SQLite),
    // once the plan is resolved; the next iteration carries the new names to the operators above
    // the list (an ORDER BY's reference), as the analyzed plan shows them.
    extensions.injectResolutionRule(_ => naming.DeclaredColumnNames)
    // SELECT *: once their input is resolved, work out which of its columns are hidden, for
    // Spark's ResolveReferences to expand the star without them in the next iteration.
    extensions.injectResolutionRule(_ => star.ResolveColumnHidingStars)
    // ...and no write may fill a hidden column with DEFAULT/NULL because of a *. A check, but it
    // must see the write before Spark's own post-hoc rules (which run before any injected one)
    // turn an INSERT into a file write with the missing columns filled in.
    extensions.injectResolutionRule(_ => star.ProtectHiddenColumnsOnWrite)
    // ...nor a MERGE's UPDATE SET * / INSERT * from a source a * left them out of: puts the held
    // source back, for Spark (or the table's format) to resolve the actions in the next iteration.
    extensions.injectResolutionRule(_ => star.ProtectHiddenColumnsOnMerge)
    // Post-hoc resolution (once, after the fixed point, also on a plan that did not resolve, and
    // before CheckAnalysis raises Spark's own errors): rules that only report.
    // A name only a later item defines: Spark's unresolved-column error, plus where that alias is.
    // Only a plan that stays unresolved fails, so one look at the fixed point's result is enough.
    extensions.injectPostHocResolutionRule(session => new lca.ReportForwardLateralAliases(session))
    // A name that means a select-list alias only in a scope extraScopes leaves out: the same error,
    // plus the setting that reads it there; raised where CheckAnalysis would fail on that name.
    extensions.injectPostHocResolutionRule(session =>
      new lca.ReportOutOfScopeLateralAliases(session))
    // Which columns of a table * hides in this session, and why.
    extensions.injectTableFunction(star.ColumnsTableFunction.description)
    // Typed responses: a query's rows with its MISSING-vs-NULL flags, readable by any client
    // (colsem.respond over Spark Connect as well as classic PySpark).
    extensions.injectTableFunction(respond.PresenceTableFunction.description)
    // A bad or misspelt spark.colsem.* value fails the first query instead of being ignored.
    extensions.injectCheckRule(session => new ValidateColsemConf(session))
    // Delta's merge API resolves its MERGE outside the analyzer and shows only the finished
    // command to the checks: there, no insert may fill a hidden column a * left out with NULL.
    extensions.injectCheckRule(_ => star.ProtectHiddenColumnsOnDeltaMerge)
    // Spark's single-pass analyzer runs none of the rules above: its queries go back to the
    // fixed-point analyzer where Spark has a fall-back, and are refused where it has none.
    // (Built with the session's analyzer, before its first query: a mode the environment turned
    // on is set off here.)
    extensions.injectCheckRule { session =>
      SinglePassResolverGuard.overrideEnvironment(session.sessionState.conf)
      new SinglePassResolverGuard(session)
    }
    // Schema invariants 1 and 2 on the analyzed plan, which the later checks compare against.
    extensions.injectCheckRule(session => new invariants.CheckAnalyzedSchema(session))
    // Invariant 5: planning starts with ReturnAnswer(optimized plan), the first whole view of it.
    extensions.injectPlannerStrategy(session => new invariants.CheckOptimizedSchema(session))
    // Invariants 3 and 6 on the prepared plan of an adaptive query: a query-stage preparation
    // rule, after other extensions' when colsem is listed after them (docs/invariants.md, "Beside
    // other extensions").
    extensions.injectQueryStagePrepRule(session =>
      new invariants.CheckPreparedSchemaAdaptive(session))
    // Three columnar rules: Spark runs their post-transition halves in reverse order of
    // registration, so these run bottom-up (check the schema, wrap the root, ship the jar).
    // Invariant 4's row check runs in tasks: ship colsem's jar to executors that lack it.
    extensions.injectColumnar(session => new invariants.ShipJarToExecutors(session))
    // Invariant 4: wrap the query's executed plan in the operator that checks its rows.
    extensions.injectColumnar(session => new invariants.InsertCheckedOutput(session))
    // Invariants 3 and 6 on a plan adaptive execution leaves alone, after the transitions.
    extensions.injectColumnar(session => new invariants.CheckPreparedSchemaColumnar(session))
  }
}

object ColsemExtensions {

  /** The extension objects colsem was applied to. Spark applies both the ServiceLoader provider
   *  and the `spark.sql.extensions` classes to one object; injecting twice would run each rule
   *  twice and register the table function twice. */
  private val applied =
    Collections.synchronizedMap(new WeakHashMap[SparkSessionExtensions, java.lang.Boolean]())

  private[colsem] def markApplied(extensions: SparkSessionExtensions): Boolean =
    applied.putIfAbsent(extensions, java.lang.Boolean.TRUE) == null
}
