"""`make bench`: colsem vs vanilla Spark in the same run, written to bench/results/latest.{json,md}.

Benchmarks (each mode in its own JVM, modes alternating so drift hits both alike):
  startup   SparkSession start to first result (SELECT 1)
  analysis  analysis + optimization of every TPC-DS query on empty tables (Spark's own queries and
            tables, from the line's spark-sql test jar on Maven Central: peer/tpcds.py); each
            query analyzed `--iterations` times, fastest kept
  feature_X colsem's TPC-DS analysis with one feature switched off and on, alternating query by
            query in one process: lateral aliases, star strategies (TAGGED,PATTERN), all of colsem
            (spark.colsem.enabled), and naming_D: spark.colsem.naming.dialect=D (canonical,
            postgres, mysql, sqlite) vs the default `spark` (each side warm: timing both in one
            process is what makes a few per cent visible)
  lca_chain_N   analysis (parse + analyze, `spark.sql(q)`) of a chain of N lateral aliases
            (a_i = a_{i-1} + 1; N = 10 to 10,000, up to 1,000 with --quick); vanilla is Spark's
            native support, which stops at 49 levels ("Max iterations"), run up to N = 1,000 only.
            Also: the 10,000/1,000 ratio (target <= 12: linear growth), DuckDB preparing the same
            query (PREPARE: parse, bind, optimize; in this process), and a chart, lca_chain.png
  lca_runtime   sum over 5M rows of a 3-level lateral-alias query vs the same query hand-inlined
  lca_udf_calls Python UDF calls per row behind an alias used three times (1.0 = evaluated once)
  shape_X   the lateral-alias shapes native Spark refuses (GROUP BY ALL, ROLLUP, a window over an
            aggregate's alias, an alias in WHERE, in a correlated subquery (both with
            spark.colsem.lateralAlias.extraScopes=WHERE,SUBQUERY), inside an aggregate):
            analysis and a run over SHAPE_ROWS rows, colsem as written vs vanilla running the
            hand-inlined query; in colsem's process both forms alternate (equal answers asserted)
  star_N    analysis of `SELECT *` on an N-column parquet table (N = 100, 1,000, 2,000, 5,000):
            default settings, and with spark.colsem.star.exclude=TAGGED,PATTERN hiding 10 % of
            the columns (vanilla: the same query, every column)
  same_jvm  analysis + optimization of every TPC-DS query in colsem's process, in a session built
            without any extension beside colsem's, alternating query by query: the default-mode
            overhead, free of the spread between separate JVMs (its ceiling is SAME_JVM_TARGET below)
  planning  analysis + optimization + physical planning (executedPlan) of every TPC-DS query; in
            the colsem process with spark.colsem.invariants off, warn and error, alternating per
            query (the cost of the schema-invariant checks, which run in all three phases)
  respond_stream_N  stream an N-row query result as a jdbc response to /dev/null: peak RSS of the
            Python process and rows/s; colsem = colsem.respond_iter, vanilla = toLocalIterator +
            json.dumps per row by hand. Run at 1M and 10M rows: a flat peak RSS is the memory bound.
Reported: the median over `--runs` processes per mode, and colsem/vanilla ratios.
`--only streaming` runs bench/streaming.py alone (the cost per micro-batch of a stateful streaming
query: vanilla, colsem's defaults and invariants=error in one JVM; latest-streaming.{json,md});
a full `make bench` (`--only all`) runs it first.
`--only costs` runs colsem's processes alone, each measuring the two cost targets only: same_jvm
(with the RuleExecutor's metering of colsem's rules) and the lateral chains against their
alias-free twins, with the 10,000/1,000 ratio and each chain's heap (the heap pools' peak during
its analysis; bench/results/latest-costs.{json,md}).
`--quick` runs everything once, on the first QUICK_QUERIES TPC-DS queries and small responses (CI
keeps the script working; no timing is asserted); `--queries N` limits a full run the same way.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"


def tpcds_corpus():  # type: ignore[no-untyped-def]
    """The running line's TPC-DS queries and tables (fetched once, then read from the cache)."""
    import pyspark

    sys.path.insert(0, str(ROOT))
    from peer import tpcds

    return tpcds.corpus(".".join(pyspark.__version__.split(".")[:2]))


QUICK_QUERIES = 10
CHAINS = (10, 100, 1000, 2000, 5000, 10_000)
QUICK_CHAINS = (10, 100, 1000)  # --quick (CI): the long chains take minutes on a busy machine
NATIVE_CHAIN_LIMIT = 1000  # native Spark fails from 50 on; longer chains are not run on vanilla
CHAIN_RATIO = (1000, 10_000, 12.0)  # (from, to, target): analysis time grows linearly
# A chain of N aliases against the alias-free list of N items, and colsem's default settings
# against a vanilla session on TPC-DS in one JVM (issue 33's targets).
CHAIN_COST_TARGET = 2.0
SAME_JVM_TARGET = 1.01
WORKER_HEAP = "4g"  # each worker JVM's heap (spark.driver.memory)
QUICK_RESPOND_ROWS = (20_000,)  # one size: --quick keeps the script working (CI)
SHAPE_ROWS = 2_000_000  # input rows of the lateral-alias shape benchmarks (LATERAL_SHAPES)
QUICK_SHAPE_ROWS = 100_000


def worker(
    mode: str,
    iterations: int,
    limit: int = 0,
    chains: Sequence[int] = CHAINS,
    shape_rows: int = SHAPE_ROWS,
    costs_only: bool = False,
) -> dict[str, float]:
    """One process: time start-up, then TPC-DS analysis. Prints one JSON line. costs_only: the
    two cost targets alone (same_jvm, and the chains against their alias-free twins)."""
    started = time.perf_counter()
    from pyspark.sql import SparkSession

    with tempfile.TemporaryDirectory(prefix="colsem-bench-") as tmp:
        builder = (
            SparkSession.builder.master("local[1]")
            # Both modes get the same heap, so the GC works alike for both; the chains' heap
            # figures are taken under it (tests/test_lateral_alias.py holds a 10,000-alias
            # chain in Spark's default 1g).
            .config("spark.driver.memory", WORKER_HEAP)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.warehouse.dir", f"{tmp}/warehouse")
            .config("spark.sql.catalogImplementation", "in-memory")
        )
        if mode == "colsem":
            import colsem

            colsem.configure(builder)
        spark = builder.getOrCreate()
        spark.sql("SELECT 1").collect()
        result = {"startup_s": time.perf_counter() - started}
        active = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
        if active != (mode == "colsem"):
            raise SystemExit(f"{mode} run has colsem active={active}")
        corpus = tpcds_corpus()
        for stmt in corpus.create_statements():
            spark.sql(stmt)
        queries = corpus.queries()[: limit or None]
        if costs_only:
            result.update(same_jvm_analysis(spark, queries, iterations))
            result.update(chain_benchmarks(spark, iterations, chains, native=False))
            spark.stop()
            return result
        total = 0.0
        for path in queries:
            sql = path.read_text()
            best = float("inf")
            for _ in range(iterations):
                t0 = time.perf_counter()
                qe = spark.sql(sql)._jdf.queryExecution()
                qe.analyzed()
                qe.optimizedPlan()
                best = min(best, time.perf_counter() - t0)
            total += best
        result["tpcds_analysis_s"] = total
        result["tpcds_queries"] = len(queries)
        result.update(planning_benchmarks(spark, queries, iterations, mode == "colsem"))
        if mode == "colsem":
            result.update(feature_switch_analysis(spark, queries, iterations))
            result.update(same_jvm_analysis(spark, queries, iterations))
        result.update(lateral_alias_benchmarks(spark, iterations, chains, native=mode == "vanilla"))
        result.update(
            lateral_shape_benchmarks(spark, iterations, shape_rows, native=mode == "vanilla")
        )
        result.update(star_benchmarks(spark, mode, iterations))
        spark.stop()
    return result


NAMING_DIALECTS = ("canonical", "postgres", "mysql", "sqlite")

# Each feature on and off in the colsem process: (metric, left label, right label, left settings,
# right settings). Keys missing from a side are unset (the default). The star pattern hides no
# TPC-DS column, so both sides give the same plans and the difference is the strategy's own cost.
FEATURE_SWITCHES = [
    (
        "feature_lateral_alias",
        "lateralAlias.enabled=false",
        "default (true)",
        {"spark.colsem.lateralAlias.enabled": "false"},
        {},
    ),
    (
        "feature_star",
        "default (no star strategy)",
        "star.exclude=TAGGED,PATTERN",
        {},
        {
            "spark.colsem.star.exclude": "TAGGED,PATTERN",
            "spark.colsem.star.excludePattern": "_colsem_.*",
        },
    ),
    (
        "feature_all_off",
        "spark.colsem.enabled=false",
        "default (true)",
        {"spark.colsem.enabled": "false"},
        {},
    ),
] + [
    (
        f"naming_{d}",
        "naming.dialect=spark (default)",
        f"naming.dialect={d}",
        {},
        {"spark.colsem.naming.dialect": d},
    )
    for d in NAMING_DIALECTS
]
SWITCHED_KEYS = sorted({k for *_, left, right in FEATURE_SWITCHES for k in (*left, *right)})


def apply_settings(spark, settings: dict[str, str]) -> None:
    for key in SWITCHED_KEYS:
        if key in settings:
            spark.conf.set(key, settings[key])
        else:
            spark.conf.unset(key)


def feature_switch_analysis(spark, queries: list[Path], iterations: int) -> dict[str, float]:
    """TPC-DS analysis + optimization with each feature switched off and on, in the same process,
    alternating query by query (and which side goes first) so JIT warm-up and machine load hit
    both alike. `<metric>_left_s` and `<metric>_right_s` are the totals of the fastest runs."""
    out: dict[str, float] = {}
    for metric, _, _, left, right in FEATURE_SWITCHES:
        totals = [0.0, 0.0]
        for path in queries:
            sql = path.read_text()
            best = [float("inf"), float("inf")]
            for i in range(iterations):
                for side in (0, 1) if i % 2 == 0 else (1, 0):
                    apply_settings(spark, (left, right)[side])
                    t0 = time.perf_counter()
                    qe = spark.sql(sql)._jdf.queryExecution()
                    qe.analyzed()
                    qe.optimizedPlan()
                    best[side] = min(best[side], time.perf_counter() - t0)
            totals[0] += best[0]
            totals[1] += best[1]
        out[f"{metric}_left_s"], out[f"{metric}_right_s"] = totals
    apply_settings(spark, {})
    return out


def vanilla_session_beside(spark):
    """A JVM session without any extension, sharing `spark`'s SparkContext and catalog: built with
    an explicit empty SparkSessionExtensions, so neither spark.sql.extensions nor ServiceLoader
    providers apply (the builder would apply both)."""
    jvm = spark._jvm
    session = spark._jsparkSession
    empty_map = getattr(getattr(jvm.scala.collection.immutable, "Map$"), "MODULE$").empty()
    vanilla = jvm.org.apache.spark.sql.classic.SparkSession(
        session.sparkContext(),
        jvm.scala.Some(session.sharedState()),
        jvm.scala.Option.empty(),
        jvm.org.apache.spark.sql.SparkSessionExtensions(),
        empty_map,
        empty_map,
    )
    if vanilla.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() != 0:
        raise SystemExit("the session built beside colsem's has colsem")
    return vanilla


def same_jvm_analysis(spark, queries: list[Path], iterations: int) -> dict[str, float]:
    """TPC-DS analysis + optimization in a vanilla session and in colsem's, in one JVM, alternating
    query by query (and which goes first): the overhead of colsem's default settings, free of the
    process-to-process spread that separate JVMs show on a busy machine."""
    sessions = {"vanilla": vanilla_session_beside(spark), "colsem": spark._jsparkSession}
    totals = {"vanilla": 0.0, "colsem": 0.0}
    for path in queries:
        sql = path.read_text()
        best = {"vanilla": float("inf"), "colsem": float("inf")}
        for i in range(iterations + 1):  # the first round warms the query up, untimed
            for name in ("vanilla", "colsem") if i % 2 == 0 else ("colsem", "vanilla"):
                t0 = time.perf_counter()
                qe = sessions[name].sql(sql).queryExecution()
                qe.analyzed()
                qe.optimizedPlan()
                if i > 0:
                    best[name] = min(best[name], time.perf_counter() - t0)
        for name in totals:
            totals[name] += best[name]
    return {
        "same_jvm_vanilla_s": totals["vanilla"],
        "same_jvm_colsem_s": totals["colsem"],
        **colsem_rule_seconds(spark, queries),
    }


RULE_METRIC = re.compile(r"^(\S+)\s+\d+ / (\d+)\s+\d+ / (\d+)\s*$")


def colsem_rule_seconds(spark, queries: list[Path]) -> dict[str, float]:
    """Where colsem's share of the same_jvm pass goes: one more analysis + optimization of every
    query in colsem's session, metered by Spark's RuleExecutor (each analyzer and optimizer rule's
    time and runs, all sessions of the JVM alike, so nothing else may run meanwhile). Keys:
    `rule_s:<rule>` and `rule_runs:<rule>` for colsem's rules, `rules_total_s` for every rule."""
    meter = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
    meter.resetMetrics()
    for path in queries:
        qe = spark._jsparkSession.sql(path.read_text()).queryExecution()
        qe.analyzed()
        qe.optimizedPlan()
    out: dict[str, float] = {"rules_total_s": 0.0}
    for line in meter.dumpTimeSpent().splitlines():
        m = RULE_METRIC.match(line.strip())
        if m:
            name, nanos, runs = m.group(1), int(m.group(2)), int(m.group(3))
            out["rules_total_s"] += nanos / 1e9
            if name.startswith("io.colsem."):
                out[f"rule_s:{name}"] = nanos / 1e9
                out[f"rule_runs:{name}"] = runs
    return out


INVARIANT_MODES = ("off", "warn", "error")


def planning_benchmarks(spark, queries, iterations: int, colsem_active: bool) -> dict[str, float]:
    """Planning time of all TPC-DS queries, fastest of `iterations` per query; with colsem, once
    per spark.colsem.invariants mode, the modes alternating within each query."""
    modes = INVARIANT_MODES if colsem_active else (None,)
    totals = {m: 0.0 for m in modes}
    for path in queries:
        sql = path.read_text()
        best = {m: float("inf") for m in modes}
        for i in range(iterations + 1):  # the first round warms the query up, untimed
            for m in modes if i % 2 == 0 else tuple(reversed(modes)):
                if m is not None:
                    spark.conf.set("spark.colsem.invariants", m)
                t0 = time.perf_counter()
                spark.sql(sql)._jdf.queryExecution().executedPlan()
                if i > 0:
                    best[m] = min(best[m], time.perf_counter() - t0)
        for m in modes:
            totals[m] += best[m]
    if colsem_active:
        spark.conf.unset("spark.colsem.invariants")
        return {
            "tpcds_planning_s": totals["off"],
            "tpcds_planning_warn_s": totals["warn"],
            "tpcds_planning_error_s": totals["error"],
        }
    return {"tpcds_planning_s": totals[None]}


RUNTIME_ROWS = 100_000_000


def timed(fn, iterations: int) -> float:
    best = float("inf")
    for _ in range(iterations):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def chain_query(n: int, source: str = "range(10)") -> str:
    """A chain of n lateral aliases: a0 is the input's id, a_i = a_{i-1} + 1."""
    return (
        "SELECT id AS a0, "
        + ", ".join(f"a{i - 1} + 1 AS a{i}" for i in range(1, n + 1))
        + f" FROM {source}"
    )


def alias_free_query(n: int) -> str:
    """The chain's alias-free twin: n + 1 items over the input's column only (a_i = id + i), what
    Spark needs to analyze n items at all."""
    return (
        "SELECT id AS a0, "
        + ", ".join(f"id + {i} AS a{i}" for i in range(1, n + 1))
        + " FROM range(10)"
    )


def lateral_alias_benchmarks(
    spark, iterations: int, chains: Sequence[int], native: bool
) -> dict[str, float]:
    out = chain_benchmarks(spark, iterations, chains, native)
    out.update(runtime_benchmarks(spark, iterations))
    return out


def chain_benchmarks(
    spark, iterations: int, chains: Sequence[int], native: bool
) -> dict[str, float]:
    """Analysis of each chain length; colsem's alternating with the chain's alias-free twin."""
    out: dict[str, float] = {}

    def analyze(query: str) -> Callable[[], Any]:
        # What a user waits for: parse + analysis (spark.sql analyzes eagerly).
        return lambda: spark.sql(query)._jdf.queryExecution().analyzed()

    for n in chains:
        query = chain_query(n)
        if native and n > NATIVE_CHAIN_LIMIT:
            out[f"lca_chain_{n}_s"] = float("nan")
            continue
        if native:
            try:
                out[f"lca_chain_{n}_s"] = timed(analyze(query), iterations)
            except Exception:  # native Spark: Max iterations (100) reached for batch Resolution
                out[f"lca_chain_{n}_s"] = float("nan")
            continue
        # colsem: the chain's heap first (its first analysis), then the chain and its alias-free
        # twin alternating, each the fastest of its runs.
        out.update(chain_heap(spark, n, query))
        chain, free = analyze(query), analyze(alias_free_query(n))
        chain()
        free()
        best = {"chain": float("inf"), "free": float("inf")}
        for i in range(max(iterations, 3)):
            for name, fn in (("chain", chain), ("free", free))[:: 1 if i % 2 == 0 else -1]:
                best[name] = min(best[name], timed(fn, 1))
        out[f"lca_chain_{n}_s"] = best["chain"]
        out[f"lca_free_{n}_s"] = best["free"]
    return out


def chain_heap(spark, n: int, query: str) -> dict[str, float]:
    """The JVM heap one analysis of the chain takes (MiB), through java.lang.management: the heap
    pools' peak usage while it runs, above the heap in use before it (after a full GC and a reset
    of the peaks). Garbage not yet collected is included, so it grows with the heap Spark is
    given; what the plan keeps afterwards is not told apart from Spark's parser caches and py4j's
    references here (tests/test_lateral_alias.py holds the chain in a 1 GB driver instead)."""
    factory = spark._jvm.java.lang.management.ManagementFactory
    memory = factory.getMemoryMXBean()
    pools = [p for p in factory.getMemoryPoolMXBeans() if p.getType().name() == "HEAP"]
    gc.collect()  # Python's cycles first: a DataFrame they hold keeps its JVM plan through py4j
    memory.gc()
    before = memory.getHeapMemoryUsage().getUsed()
    for pool in pools:
        pool.resetPeakUsage()
    spark.sql(query)._jdf.queryExecution().analyzed()
    peak = sum(pool.getPeakUsage().getUsed() for pool in pools)
    return {f"lca_chain_{n}_peak_heap_mb": (peak - before) / 2**20}


def runtime_benchmarks(spark, iterations: int) -> dict[str, float]:
    """A lateral-alias query against its hand-inlined form over RUNTIME_ROWS rows, and how often a
    Python UDF behind an alias used three times runs."""
    out: dict[str, float] = {}
    lateral = (
        f"SELECT sum(c) FROM (SELECT id * 2 AS a, a + 1 AS b, b * 3 AS c "
        f"FROM range({RUNTIME_ROWS}))"
    )
    inlined = f"SELECT sum(((id * 2) + 1) * 3) FROM range({RUNTIME_ROWS})"
    assert spark.sql(lateral).first()[0] == spark.sql(inlined).first()[0]
    for _ in range(3):  # warm the JIT for both shapes before timing either
        spark.sql(lateral).collect()
        spark.sql(inlined).collect()
    best = {"lca_runtime_s": float("inf"), "inlined_runtime_s": float("inf")}
    for _ in range(max(iterations, 3)):  # alternate, keep the fastest of each
        for key, query in (("lca_runtime_s", lateral), ("inlined_runtime_s", inlined)):
            best[key] = min(best[key], timed(lambda: spark.sql(query).collect(), 1))
    out.update(best)
    calls = spark.sparkContext.accumulator(0)

    def plus_one(x: int) -> int:
        calls.add(1)
        return x + 1

    spark.udf.register("bench_plus_one", plus_one, "bigint")
    rows = 1000
    spark.sql(
        f"SELECT sum(v + w + z) FROM (SELECT bench_plus_one(id) AS v, v * 2 AS w, v * 3 AS z "
        f"FROM range({rows}))"
    ).collect()
    out["lca_udf_calls_per_row"] = calls.value / rows
    return out


# The lateral-alias shapes native Spark refuses (docs/lateral-aliases.md, "Shapes"): colsem runs
# each as written, vanilla Spark runs its hand-inlined form (the query a user writes without
# colsem). (name, label, as written, hand-inlined); {rows} is the input's size.
LATERAL_SHAPES = [
    (
        "group_by_all",
        "GROUP BY ALL over items that use aliases",
        "SELECT id % 100 AS a, a % 7 AS b, sum(id) AS s FROM range({rows}) GROUP BY ALL",
        "SELECT id % 100 AS a, (id % 100) % 7 AS b, sum(id) AS s FROM range({rows}) GROUP BY ALL",
    ),
    (
        "rollup",
        "ROLLUP over aliases that use aliases",
        "SELECT id % 100 AS a, a % 7 AS b, sum(id) AS s, grouping_id(a, b) AS g FROM range({rows}) "
        "GROUP BY ROLLUP(a, b)",
        "SELECT id % 100 AS a, (id % 100) % 7 AS b, sum(id) AS s, grouping_id(id % 100, (id % 100) % 7) AS g "
        "FROM range({rows}) GROUP BY ROLLUP(id % 100, (id % 100) % 7)",
    ),
    (
        "window_over_aggregate",
        "window over an aggregate's alias (rank by total, share of total)",
        "SELECT id % 100 AS g, sum(id) AS total, rank() OVER (ORDER BY total DESC) AS r, "
        "total / sum(total) OVER () AS share FROM range({rows}) GROUP BY g",
        "SELECT id % 100 AS g, sum(id) AS total, rank() OVER (ORDER BY sum(id) DESC) AS r, "
        "sum(id) / sum(sum(id)) OVER () AS share FROM range({rows}) GROUP BY id % 100",
    ),
    (
        "where_alias",
        "select alias in WHERE",
        "SELECT count(*), sum(m) FROM (SELECT id * 3 AS t, t % 7 AS m FROM range({rows}) WHERE m > 2)",
        "SELECT count(*), sum(m) FROM (SELECT id * 3 AS t, (id * 3) % 7 AS m FROM range({rows}) "
        "WHERE ((id * 3) % 7) > 2)",
    ),
    (
        "correlated_subquery",
        "alias in a correlated scalar subquery",
        "SELECT count(*), sum(m) FROM (SELECT id % 1000 AS x, (SELECT max(d.id) FROM range(100) AS d "
        "WHERE d.id < x) AS m FROM range({rows}))",
        "SELECT count(*), sum(m) FROM (SELECT id % 1000 AS x, (SELECT max(d.id) FROM range(100) AS d "
        "WHERE d.id < (r.id % 1000)) AS m FROM range({rows}) AS r)",
    ),
    (
        "alias_in_aggregate",
        "alias inside an aggregate's argument",
        "SELECT id % 100 AS k, k * 2 AS x, sum(x) AS s, max(x + id) AS m FROM range({rows}) GROUP BY id % 100",
        "SELECT id % 100 AS k, (id % 100) * 2 AS x, sum((id % 100) * 2) AS s, max((id % 100) * 2 + id) AS m "
        "FROM range({rows}) GROUP BY id % 100",
    ),
]


def lateral_shape_benchmarks(spark, iterations: int, rows: int, native: bool) -> dict[str, float]:
    """Each shape's analysis and runtime: colsem as written, vanilla hand-inlined. In colsem's
    process both forms run, alternating, with equal results asserted (the in-process ratio); the
    WHERE and subquery shapes need their scopes turned on (spark.colsem.lateralAlias.extraScopes)."""
    out: dict[str, float] = {}
    if not native:
        spark.conf.set("spark.colsem.lateralAlias.extraScopes", "WHERE,SUBQUERY")
    for name, _, written, inlined in LATERAL_SHAPES:
        forms = {"inlined": inlined.format(rows=rows)}
        if not native:
            forms["written"] = written.format(rows=rows)
            answers = [sorted(map(tuple, spark.sql(q).collect()), key=repr) for q in forms.values()]
            if answers[0] != answers[1]:
                raise SystemExit(
                    f"lateral shape {name}: colsem's answer differs from the hand-inlined query's"
                )
        best: dict[str, dict[str, float]] = {
            f: {"analysis": float("inf"), "runtime": float("inf")} for f in forms
        }
        for _ in range(max(iterations, 2)):
            for form, query in forms.items():
                best[form]["analysis"] = min(
                    best[form]["analysis"],
                    timed(lambda: spark.sql(query)._jdf.queryExecution().analyzed(), 1),
                )
                best[form]["runtime"] = min(
                    best[form]["runtime"], timed(lambda: spark.sql(query).collect(), 1)
                )
        mine = best["inlined" if native else "written"]
        out[f"shape_{name}_analysis_s"] = mine["analysis"]
        out[f"shape_{name}_runtime_s"] = mine["runtime"]
        if not native:
            out[f"shape_{name}_inlined_runtime_s"] = best["inlined"]["runtime"]
    if not native:
        spark.conf.unset("spark.colsem.lateralAlias.extraScopes")
    return out


STAR_WIDTHS = (100, 1000, 2000, 5000)


def star_benchmarks(spark, mode: str, iterations: int) -> dict[str, float]:
    """Analysis of SELECT * on wide catalog tables whose every tenth column is tagged hidden."""
    out: dict[str, float] = {}
    for n in STAR_WIDTHS:
        columns = ", ".join(f"{'_sys' if i % 10 == 0 else 'c'}{i} INT" for i in range(n))
        hidden = ",".join(f"_sys{i}" for i in range(0, n, 20))  # half of them by the property...
        spark.sql(
            f"CREATE TABLE bench_wide_{n} ({columns}) USING parquet "
            f"TBLPROPERTIES ('colsem.hidden_columns' = '{hidden}')"
        )
        query = f"SELECT * FROM bench_wide_{n}"

        def analyze() -> Any:
            return spark.sql(query)._jdf.queryExecution().analyzed()

        for _ in range(2):
            analyze()
        out[f"star_{n}_s"] = timed(analyze, max(iterations, 3))
        if mode == "colsem":  # ...the other half by the pattern
            spark.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
            spark.conf.set("spark.colsem.star.excludePattern", "_sys[0-9]*[13579]0")
            width = len(spark.sql(query).columns)
            if width != n - n // 10:
                raise SystemExit(f"SELECT * on {n} columns kept {width}, expected {n - n // 10}")
            analyze()
            out[f"star_{n}_hiding_s"] = timed(analyze, max(iterations, 3))
            spark.conf.unset("spark.colsem.star.exclude")
            spark.conf.unset("spark.colsem.star.excludePattern")
        else:
            out[f"star_{n}_hiding_s"] = out[f"star_{n}_s"]
    return out


RESPOND_ROWS = (1_000_000, 10_000_000)
RESPOND_SQL = (
    "SELECT id, id * 0.5 AS half, concat('row-', id) AS label, id % 7 = 0 AS flag, "
    "CAST(id AS DECIMAL(20, 2)) AS amount FROM range(0, {rows}, 1, {partitions})"
)


def peak_rss_mb() -> float:
    """This process's peak RSS (Linux's VmHWM). Not getrusage's ru_maxrss: across fork and exec
    that keeps the parent's peak, so a worker started by a big bench process reported the
    parent's RSS as its own, and no growth while streaming."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0  # kB
    raise SystemExit("the respond benchmarks read the peak RSS from /proc/self/status (Linux)")


def respond_worker(mode: str, rows: int) -> dict[str, float]:
    """One process: stream `rows` rows to /dev/null; the Python process's peak RSS is the answer."""
    import colsem
    from pyspark.sql import SparkSession

    local_dir = tempfile.mkdtemp(prefix="colsem-bench-respond-")
    builder = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.local.dir", local_dir)
        # Partition results go to the driver directly, not through the block manager: on a
        # busy machine a task result parked there was lost twice (TaskResultLost).
        .config("spark.task.maxDirectResultSize", "64m")
        # The driver JVM's heap grew with the rows streamed through toLocalIterator (vanilla
        # and colsem alike): at 1g it ran out near 8M rows. Python's RSS is what is measured.
        .config("spark.driver.memory", "3g")
    )
    spark = colsem.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # ~50k rows per partition: the driver JVM holds one partition at a time.
    df = spark.sql(RESPOND_SQL.format(rows=rows, partitions=max(1, rows // 50_000)))
    list(colsem.respond_iter(spark.sql("SELECT 1 AS warm")))
    base = peak_rss_mb()
    started = time.perf_counter()
    written = 0
    with open(os.devnull, "w") as sink:

        def progress(done: int) -> None:  # a trace that survives a run cut short
            if done % 1_000_000 == 0:
                print(
                    json.dumps(
                        {
                            "rows_done": done,
                            "peak_rss_mb": peak_rss_mb(),
                            "seconds": time.perf_counter() - started,
                        }
                    ),
                    file=sys.stderr,
                    flush=True,
                )

        if mode == "colsem":
            for i, piece in enumerate(colsem.respond_iter(df, fetch_size=1000)):
                written += sink.write(piece)
                progress(i * 1000)
        else:
            sink.write('{"datarows":[')
            for i, row in enumerate(df.toLocalIterator()):
                written += sink.write(("," if i else "") + json.dumps(list(row), default=str))
                progress(i)
            sink.write("]}")
    seconds = time.perf_counter() - started
    spark.stop()
    shutil.rmtree(local_dir, ignore_errors=True)
    return {
        "rows": rows,
        "seconds": seconds,
        "rows_per_s": rows / seconds,
        "base_rss_mb": base,
        "peak_rss_mb": peak_rss_mb(),
        "bytes": written,
    }


def run_respond(mode: str, rows: int) -> dict[str, float]:
    return run_worker(f"respond {mode}", ["--respond-worker", mode, "--rows", str(rows)])


def run_worker(name: str, args: list[str]) -> dict[str, float]:
    """This script in a new process (a new JVM, colsem not auto-registered); its last JSON line."""
    env = dict(os.environ, COLSEM_AUTOREGISTER="0")
    proc = subprocess.run(
        [sys.executable, __file__] + args,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{name} worker failed (exit {proc.returncode}):\n{failure(proc.stderr)}")
    return json.loads(lines[-1])


def failure(stderr: str) -> str:
    """What a failed worker's stderr says: the error lines (a Java error's class and message
    included, which its long stack trace would push out of a plain tail) and the last lines."""
    lines = stderr.splitlines()
    errors = [
        line
        for line in lines
        if not line.startswith(("\tat ", "\t... "))
        and any(w in line for w in ("Error", "Exception", "error:"))
    ]
    return "\n".join(["errors:"] + errors[-20:] + ["last lines:"] + lines[-20:])


def respond_benchmarks(quick: bool) -> list[dict[str, object]]:
    """Peak RSS and throughput of streaming responses, colsem vs by hand, at two result sizes (one
    with --quick)."""
    sizes = QUICK_RESPOND_ROWS if quick else RESPOND_ROWS
    out: list[dict[str, object]] = []
    for rows in sizes:
        result = {}
        for mode in ("colsem", "vanilla"):
            t0 = time.perf_counter()
            result[mode] = run_respond(mode, rows)
            result[mode]["growth_mb"] = result[mode]["peak_rss_mb"] - result[mode]["base_rss_mb"]
            print(
                f"[bench] respond {rows:,} rows {mode:7s} {result[mode]}  ({time.perf_counter() - t0:.0f}s)",
                file=sys.stderr,
                flush=True,
            )
        for key, label in (
            ("peak_rss_mb", f"stream {rows:,} rows as a response: Python peak RSS (MiB)"),
            (
                "growth_mb",
                f"stream {rows:,} rows as a response: Python RSS growth while streaming (MiB)",
            ),
            ("seconds", f"stream {rows:,} rows as a response: time (s)"),
        ):
            v, c = result["vanilla"][key], result["colsem"][key]
            out.append(
                {
                    "name": f"respond_stream_{rows}_{key}",
                    "label": label,
                    "vanilla": _num(v, 1),
                    "colsem": _num(c, 1),
                    "ratio": _num(_ratio(c, v), 3),
                }
            )
    return out


def chain_results(
    samples: dict[str, list[dict[str, float]]], chains: Sequence[int], iterations: int, out: Path
) -> dict[str, object]:
    """Per chain length: colsem's and native Spark's median analysis time and DuckDB's; the
    10,000/1,000 ratio when both ran; the chart drawn into `out`. NaN (JSON null) = fails."""
    colsem_s = {
        n: statistics.median(s[f"lca_chain_{n}_s"] for s in samples["colsem"]) for n in chains
    }
    native_s = {
        n: statistics.median(s[f"lca_chain_{n}_s"] for s in samples["vanilla"]) for n in chains
    }
    free_s = {
        n: statistics.median(s[f"lca_free_{n}_s"] for s in samples["colsem"])
        for n in chains
        if f"lca_free_{n}_s" in samples["colsem"][0]
    }
    duckdb_s = duckdb_chain_benchmarks(chains, iterations)
    out.mkdir(parents=True, exist_ok=True)
    draw_chain_chart(out / "lca_chain.png", colsem_s, native_s, duckdb_s, free_s)
    import duckdb

    report: dict[str, object] = {
        "measures": "colsem/native: spark.sql(q) to the analyzed plan (parse + analysis), fastest of "
        "the iterations, median of the processes; duckdb: PREPARE (parse, bind, optimize)",
        "duckdb_version": duckdb.__version__,
        "colsem_s": {str(n): _num(t) for n, t in colsem_s.items()},
        "native_s": {str(n): _num(t) for n, t in native_s.items()},
        "alias_free_s": {str(n): _num(t) for n, t in free_s.items()},
        "duckdb_s": {str(n): _num(t) for n, t in duckdb_s.items()},
        "chart": "lca_chain.png",
    }
    first, last, target = CHAIN_RATIO
    if first in colsem_s and last in colsem_s and colsem_s[first] > 0:
        report.update(ratio=colsem_s[last] / colsem_s[first], ratio_target=target)
    return report


def run_mode(
    mode: str,
    iterations: int,
    limit: int,
    chains: Sequence[int],
    shape_rows: int,
    costs_only: bool = False,
) -> dict[str, float]:
    return run_worker(
        mode,
        (["--costs-only"] if costs_only else [])
        + [
            "--worker",
            mode,
            "--iterations",
            str(iterations),
            "--queries",
            str(limit),
            "--chains",
            ",".join(map(str, chains)),
            "--shape-rows",
            str(shape_rows),
        ],
    )


def duckdb_chain_benchmarks(chains: Sequence[int], iterations: int) -> dict[int, float]:
    """Seconds DuckDB takes to PREPARE each chain query (parse, bind, optimize) over range(10) with
    the column named id, fastest of `iterations`; NaN where it refuses the query (its binder
    inlines each alias, and a chain of 500 passes its max_expression_depth of 1,000)."""
    import duckdb

    out: dict[int, float] = {}
    for n in chains:
        query = chain_query(n, source="range(10) AS t(id)")
        con = duckdb.connect()
        try:
            out[n] = timed(lambda: con.execute(f"PREPARE chain AS {query}"), iterations)
            expected = [(i + n,) for i in range(10)]
            if sorted(con.execute(f"SELECT a{n} FROM ({query})").fetchall()) != expected:
                raise SystemExit(f"DuckDB's {n}-alias chain returned wrong rows")
        except duckdb.Error:
            out[n] = float("nan")
        con.close()
        if out[n] != out[n] or out[n] > 30:  # a longer chain only fails or takes longer
            out.update({m: float("nan") for m in chains if m > n})
            break
    return out


def draw_chain_chart(
    path: Path,
    colsem_s: dict[int, float],
    native_s: dict[int, float],
    duckdb_s: dict[int, float],
    free_s: dict[int, float],
) -> None:
    """Chain length (log) against analysis time (log) for colsem, native Spark and DuckDB, and
    colsem's alias-free list of as many items; a missing point is a failure, marked where the
    series stops."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, series, style in (
        ("colsem (parse + analysis)", colsem_s, "o-"),
        ("Spark native LCA (fails past 49 levels)", native_s, "s--"),
        ("DuckDB PREPARE (fails from 500: max_expression_depth)", duckdb_s, "^:"),
        ("colsem, as many items without lateral aliases", free_s, "d-."),
    ):
        points = sorted((n, t) for n, t in series.items() if t == t)
        if points:
            (line,) = ax.plot([n for n, _ in points], [t for _, t in points], style, label=label)
            failed = [n for n, t in series.items() if t != t and n > points[-1][0]]
            if failed:
                ax.plot([min(failed)], [points[-1][1]], "x", color=line.get_color(), markersize=10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("lateral aliases in the chain")
    ax.set_ylabel("seconds (median of processes, fastest run)")
    ax.set_title("Analysis time of a lateral-alias chain (x: first length that fails)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def colsem_rule_rows(samples: list[dict[str, float]]) -> list[tuple[str, float, int]]:
    """(rule, median seconds, median runs) of colsem's metered rules, slowest first, then every
    rule's total ("all rules")."""
    if not samples or "rules_total_s" not in samples[0]:
        return []
    names = sorted({k.split(":", 1)[1] for s in samples for k in s if k.startswith("rule_s:")})
    rows = [
        (
            name,
            round(statistics.median(s.get(f"rule_s:{name}", 0.0) for s in samples), 4),
            int(statistics.median(s.get(f"rule_runs:{name}", 0) for s in samples)),
        )
        for name in names
    ]
    rows.sort(key=lambda r: -r[1])
    total = round(statistics.median(s["rules_total_s"] for s in samples), 4)
    return rows + [("all rules", total, 0)]


def chain_cost_rows(samples: list[dict[str, float]], chains: Sequence[int]) -> list[dict]:
    """Per chain length measured against its alias-free twin: medians of colsem's processes of the
    chain's and the list's time, of the runs' ratios, and of the chain's heap (chain_heap)."""

    def median(key: str, digits: int) -> Any:
        return _num(statistics.median(s[key] for s in samples), digits)

    return [
        {
            "aliases": n,
            "chain_s": median(f"lca_chain_{n}_s", 4),
            "alias_free_s": median(f"lca_free_{n}_s", 4),
            "ratio": _num(
                statistics.median(s[f"lca_chain_{n}_s"] / s[f"lca_free_{n}_s"] for s in samples), 3
            ),
            "peak_heap_mb": median(f"lca_chain_{n}_peak_heap_mb", 1),
        }
        for n in chains
        if samples and f"lca_chain_{n}_peak_heap_mb" in samples[0]
    ]


def load_average() -> float | None:
    """The 1-minute load average, so a reader can tell a busy machine's figures from a quiet one's."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _ratio(value: float, base: float) -> float:
    """value / base; NaN (no ratio) when the base is 0, e.g. no RSS growth at all while streaming."""
    return value / base if base else float("nan")


def _num(value: float, digits: int = 4):
    """JSON-safe number: None for a failed (NaN) measurement."""
    return None if value != value else round(value, digits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"one run, one iteration, {QUICK_QUERIES} TPC-DS queries, small responses (for CI)",
    )
    parser.add_argument(
        "--queries", type=int, default=0, help="the first N TPC-DS queries only (default: all)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=RESULTS,
        help="folder for latest.{json,md} (default bench/results; CI writes elsewhere)",
    )
    parser.add_argument("--runs", type=int, default=3, help="processes per mode (default 3)")
    parser.add_argument("--iterations", type=int, default=3, help="analyses per query per process")
    parser.add_argument(
        "--only",
        choices=["all", "analysis", "respond", "costs", "streaming"],
        default="all",
        help="run only the analysis/lateral-alias benchmarks, only the response streaming ones, "
        "or only the two cost targets in colsem's processes (same_jvm; the chains against their "
        "alias-free twins), or only the cost per micro-batch (bench/streaming.py)",
    )
    parser.add_argument("--costs-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", choices=["vanilla", "colsem"], help=argparse.SUPPRESS)
    parser.add_argument("--respond-worker", choices=["vanilla", "colsem"], help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--chains", default=",".join(map(str, CHAINS)), help=argparse.SUPPRESS)
    parser.add_argument("--shape-rows", type=int, default=SHAPE_ROWS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        chains = [int(n) for n in args.chains.split(",")]
        print(
            json.dumps(
                worker(
                    args.worker,
                    args.iterations,
                    args.queries,
                    chains,
                    args.shape_rows,
                    args.costs_only,
                )
            ),
            flush=True,
        )
        return 0
    if args.respond_worker:
        print(json.dumps(respond_worker(args.respond_worker, args.rows)), flush=True)
        return 0
    if args.only in ("all", "streaming"):
        # Its own process and JVM: bench/streaming.py, results in latest-streaming.{json,md}.
        quick = ["--quick"] if args.quick else []
        subprocess.run(
            [sys.executable, str(HERE / "streaming.py"), "--out", str(args.out), *quick], check=True
        )
        if args.only == "streaming":
            return 0
    load_at_start = load_average()
    runs, iterations = (1, 1) if args.quick else (args.runs, args.iterations)
    limit = args.queries or (QUICK_QUERIES if args.quick else 0)
    chains = QUICK_CHAINS if args.quick else CHAINS
    if args.only == "respond":
        runs = 0
    corpus = tpcds_corpus()  # fetched here once, before the workers read it from the cache
    print(
        f"[bench] TPC-DS: {len(corpus.queries())} queries from Spark {corpus.version}'s test jar",
        file=sys.stderr,
    )
    samples: dict[str, list[dict[str, float]]] = {"vanilla": [], "colsem": []}
    for i in range(runs):
        modes = ("vanilla", "colsem") if i % 2 == 0 else ("colsem", "vanilla")
        # The cost targets are measured inside colsem's processes (a vanilla session beside).
        for mode in ("colsem",) if args.only == "costs" else modes:
            t0 = time.perf_counter()
            samples[mode].append(
                run_mode(
                    mode,
                    iterations,
                    limit,
                    chains,
                    QUICK_SHAPE_ROWS if args.quick else SHAPE_ROWS,
                    costs_only=args.only == "costs",
                )
            )
            print(
                f"[bench] run {i + 1}/{runs} {mode:7s} {samples[mode][-1]}  ({time.perf_counter() - t0:.0f}s)",
                file=sys.stderr,
                flush=True,
            )
    import pyspark

    benchmarks = []
    metrics = [
        ("startup_s", "session start-up (s)"),
        ("tpcds_analysis_s", "TPC-DS analysis+optimization, every query run (s)"),
        (
            "tpcds_planning_s",
            "TPC-DS analysis+optimization+planning, every query run (s; "
            "colsem with invariants off)",
        ),
    ]
    metrics += [
        (f"lca_chain_{n}_s", f"analysis of a {n:,}-alias lateral chain (s; vanilla = native LCA)")
        for n in chains
    ]
    metrics += [
        ("lca_runtime_s", f"3-level lateral-alias query over {RUNTIME_ROWS:,} rows (s)"),
        ("inlined_runtime_s", "the same query hand-inlined (s)"),
        ("lca_udf_calls_per_row", "Python UDF calls per row, alias used 3 times"),
    ]
    shape_rows = QUICK_SHAPE_ROWS if args.quick else SHAPE_ROWS
    for name, label, _, _ in LATERAL_SHAPES:
        metrics += [
            (
                f"shape_{name}_analysis_s",
                f"{label}: analysis (s; vanilla runs the hand-inlined query)",
            ),
            (
                f"shape_{name}_runtime_s",
                f"{label}: run over {shape_rows:,} rows (s; vanilla runs the hand-inlined query)",
            ),
        ]
    for n in STAR_WIDTHS:
        metrics += [
            (f"star_{n}_s", f"analysis of SELECT * on {n:,} columns, default settings (s)"),
            (
                f"star_{n}_hiding_s",
                f"analysis of SELECT * on {n:,} columns, colsem hiding "
                f"{n // 10:,} (TAGGED+PATTERN) vs vanilla * (s)",
            ),
        ]
    for metric, label in metrics:
        if not samples["vanilla"] or metric not in samples["vanilla"][0]:
            continue
        vanilla = statistics.median(s[metric] for s in samples["vanilla"])
        colsem_ = statistics.median(s[metric] for s in samples["colsem"])
        ratio = colsem_ / vanilla if vanilla == vanilla and vanilla > 0 else float("nan")
        benchmarks.append(
            {
                "name": metric,
                "label": label,
                "vanilla": _num(vanilla),
                "colsem": _num(colsem_),
                "ratio": _num(ratio, 3),
            }
        )
    chain_report = (
        chain_results(samples, chains, iterations, args.out)
        if samples["colsem"] and samples["vanilla"]
        else {}
    )
    first, last, target = CHAIN_RATIO
    if samples["colsem"] and all(f"lca_chain_{n}_s" in samples["colsem"][0] for n in (first, last)):
        # Medians of colsem's processes, as chain_results reports them (--only costs has no
        # vanilla processes, so no chain report, but the same ratio).
        short, long_ = (
            statistics.median(s[f"lca_chain_{n}_s"] for s in samples["colsem"])
            for n in (first, last)
        )
        benchmarks.append(
            {
                "name": f"lca_chain_{last}_vs_{first}",
                "label": f"colsem analysis: {first:,}-alias chain (left) vs {last:,}-alias "
                f"chain (right) (s; target ratio <= {target:g}: linear)",
                "vanilla": _num(short),
                "colsem": _num(long_),
                "ratio": _num(long_ / short, 3),
                "target": target,
                "meets_target": long_ / short <= target,
            }
        )
    if samples["colsem"] and "lca_runtime_s" in samples["colsem"][0]:
        lca = statistics.median(s["lca_runtime_s"] for s in samples["colsem"])
        inl = statistics.median(s["inlined_runtime_s"] for s in samples["colsem"])
        benchmarks.append(
            {
                "name": "lca_vs_inlined",
                "label": "colsem runtime: hand-inlined (left) vs lateral aliases (right) (s)",
                "vanilla": _num(inl),
                "colsem": _num(lca),
                "ratio": _num(lca / inl, 3),
            }
        )
    for name, label, _, _ in LATERAL_SHAPES:
        if samples["colsem"] and f"shape_{name}_inlined_runtime_s" in samples["colsem"][0]:
            inl = statistics.median(s[f"shape_{name}_inlined_runtime_s"] for s in samples["colsem"])
            lat = statistics.median(s[f"shape_{name}_runtime_s"] for s in samples["colsem"])
            benchmarks.append(
                {
                    "name": f"shape_{name}_vs_inlined",
                    "label": f"colsem runtime, {label}: hand-inlined (left) vs as written (right) (s)",
                    "vanilla": _num(inl),
                    "colsem": _num(lat),
                    "ratio": _num(_ratio(lat, inl), 3),
                }
            )
    if args.only in ("all", "respond"):
        benchmarks += respond_benchmarks(args.quick)
    if samples["colsem"] and "tpcds_planning_warn_s" in samples["colsem"][0]:
        vanilla = statistics.median(s["tpcds_planning_s"] for s in samples["vanilla"])
        off = statistics.median(s["tpcds_planning_s"] for s in samples["colsem"])
        for m in ("warn", "error"):
            checked = statistics.median(s[f"tpcds_planning_{m}_s"] for s in samples["colsem"])
            # Within one process, modes alternating per query: the checks' own cost.
            in_process = statistics.median(
                s[f"tpcds_planning_{m}_s"] / s["tpcds_planning_s"] for s in samples["colsem"]
            )
            benchmarks.append(
                {
                    "name": f"invariants_{m}",
                    "label": f"TPC-DS planning, invariants={m}: vanilla (left) vs colsem (s)",
                    "vanilla": _num(vanilla),
                    "colsem": _num(checked),
                    "ratio": _num(checked / vanilla, 3),
                }
            )
            benchmarks.append(
                {
                    "name": f"invariants_{m}_vs_off",
                    "label": f"TPC-DS planning in one process: invariants=off (left) vs {m} (s)",
                    "vanilla": _num(off),
                    "colsem": _num(checked),
                    "ratio": _num(in_process, 3),
                }
            )
    if samples["colsem"] and "same_jvm_vanilla_s" in samples["colsem"][0]:
        left = statistics.median(s["same_jvm_vanilla_s"] for s in samples["colsem"])
        right = statistics.median(s["same_jvm_colsem_s"] for s in samples["colsem"])
        # The median of the runs' own ratios: each run compares its two sessions in one JVM.
        ratio = statistics.median(
            s["same_jvm_colsem_s"] / s["same_jvm_vanilla_s"] for s in samples["colsem"]
        )
        benchmarks.append(
            {
                "name": "tpcds_same_jvm",
                "label": "TPC-DS analysis+optimization in one JVM, sessions alternating per "
                "query: vanilla session (left) vs colsem with default settings (right) (s; "
                f"ratio: median of the runs' ratios, target <= {SAME_JVM_TARGET:g})",
                "vanilla": _num(left),
                "colsem": _num(right),
                "ratio": _num(ratio, 3),
                "target": SAME_JVM_TARGET,
                "meets_target": ratio <= SAME_JVM_TARGET,
            }
        )
    rule_rows = colsem_rule_rows(samples["colsem"])
    for n in chains:
        if samples["colsem"] and f"lca_free_{n}_s" in samples["colsem"][0]:
            ratio = statistics.median(
                s[f"lca_chain_{n}_s"] / s[f"lca_free_{n}_s"] for s in samples["colsem"]
            )
            benchmarks.append(
                {
                    "name": f"lca_chain_{n}_vs_alias_free",
                    "label": f"colsem analysis: {n:,} items without lateral aliases (left) vs "
                    f"a chain of {n:,} lateral aliases (right) (s; one process, alternating; "
                    f"ratio: median of the runs' ratios, target <= {CHAIN_COST_TARGET:g})",
                    "vanilla": _num(
                        statistics.median(s[f"lca_free_{n}_s"] for s in samples["colsem"])
                    ),
                    "colsem": _num(
                        statistics.median(s[f"lca_chain_{n}_s"] for s in samples["colsem"])
                    ),
                    "ratio": _num(ratio, 3),
                    "target": CHAIN_COST_TARGET,
                    "meets_target": ratio <= CHAIN_COST_TARGET,
                }
            )
    chain_costs = chain_cost_rows(samples["colsem"], chains)
    for metric, left_label, right_label, _, _ in FEATURE_SWITCHES:
        if samples["colsem"] and f"{metric}_left_s" in samples["colsem"][0]:
            left = statistics.median(s[f"{metric}_left_s"] for s in samples["colsem"])
            right = statistics.median(s[f"{metric}_right_s"] for s in samples["colsem"])
            benchmarks.append(
                {
                    "name": metric,
                    "label": f"colsem TPC-DS analysis+optimization in one process: "
                    f"{left_label} (left) vs {right_label} (right) (s)",
                    "vanilla": _num(left),
                    "colsem": _num(right),
                    "ratio": _num(right / left, 3),
                }
            )
    report = {
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_start": load_at_start,
            "load_average_end": load_average(),
        },
        "spark": pyspark.__version__,
        "runs_per_mode": runs,
        "iterations": iterations,
        "quick": args.quick,
        "tpcds_queries_per_run": limit or "all",
        "benchmarks": benchmarks,
        "lca_chains": chain_report,
        "colsem_rules": [
            {"rule": name, "seconds_per_pass": secs, "runs_per_pass": runs}
            for name, secs, runs in rule_rows
        ],
        "lca_chain_costs": chain_costs,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    stem = "latest" if args.only == "all" else f"latest-{args.only}"
    (args.out / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
    md = [
        "# colsem benchmarks",
        "",
        f"Spark {report['spark']}, {report['machine']['cpus']} CPUs, {report['machine']['platform']}; "
        + (
            f"median of {runs} process(es) per mode, modes alternating"
            if runs
            else "response streaming only"
        )
        + f"{' (quick mode)' if args.quick else ''}"
        + (f"; the first {limit} TPC-DS queries" if limit else "")
        + "; 1-minute load average "
        f"{report['machine']['load_average_start']} at the start, {report['machine']['load_average_end']} "
        "at the end (other work on the machine slows both modes alike, but widens the spread: ratios "
        "measured in one process, modes alternating per query, are the steadiest).",
        "",
        "| benchmark | vanilla | colsem | ratio |",
        "|---|---|---|---|",
    ]

    def show(v: Any) -> Any:
        return "fails" if v is None else v

    md += [
        f"| {b['label']} | {show(b['vanilla'])} | {show(b['colsem'])} | {show(b['ratio'])} |"
        for b in benchmarks
    ]
    if args.only in ("all", "analysis"):
        md += [
            "",
            "`fails`: vanilla Spark's native lateral-alias support stops at 49 levels "
            '("Max iterations (100) reached for batch Resolution").',
        ]
    if rule_rows:
        md += [
            "",
            "colsem's analyzer and optimizer rules in one more pass over every TPC-DS query in "
            "colsem's session (Spark's RuleExecutor metering; median of the runs; every rule of "
            "the pass, Spark's included, is the last row). Check rules, planner strategies and "
            "columnar rules are not metered by Spark and not listed.",
            "",
            "| rule | seconds per pass | runs per pass |",
            "|---|---|---|",
        ]
        md += [
            f"| `{name}` | {secs} | {runs or ''} |"
            if name != "all rules"
            else f"| {name} | {secs} | |"
            for name, secs, runs in rule_rows
        ]
    if chain_costs:
        md += [
            "",
            "Lateral-alias chains in colsem's processes (`SELECT id AS a0, a0 + 1 AS a1, ... FROM "
            "range(10)`, parse + analysis), medians of the processes: time against the alias-free "
            "list of as many items (fastest of alternating runs; ratio: median of the runs' "
            "ratios), and the heap of the chain's first analysis, through java.lang.management "
            f"(workers' spark.driver.memory={WORKER_HEAP}): the heap pools' peak while it runs, "
            "above the heap in use after a full GC before it (garbage not yet collected included, "
            "so it grows with the heap given; tests/test_lateral_alias.py holds a 10,000-alias "
            "chain in a 1 GB driver).",
            "",
            "| aliases | chain (s) | alias-free (s) | ratio | heap pools' peak (MiB) |",
            "|---|---|---|---|---|",
        ]
        md += [
            f"| {c['aliases']:,} | {show(c['chain_s'])} | {show(c['alias_free_s'])} | "
            f"{show(c['ratio'])} | {show(c['peak_heap_mb'])} |"
            for c in chain_costs
        ]
    if chain_report:
        md += [
            "",
            "Lateral-alias chains (`SELECT id AS a0, a0 + 1 AS a1, ... FROM range(10)`): colsem "
            "and native Spark time `spark.sql(q)` up to the analyzed plan (parse + analysis); DuckDB "
            f"{chain_report['duckdb_version']} times `PREPARE` of the same query over `range(10) AS "
            "t(id)` (parse, bind, optimize), in the bench's own process. Chart: "
            "[lca_chain.png](lca_chain.png).",
            "",
            "| aliases | colsem (s) | Spark native (s) | DuckDB PREPARE (s) |",
            "|---|---|---|---|",
        ]
        md += [
            f"| {int(n):,} | {show(c)} | {show(chain_report['native_s'][n])} | "
            f"{show(chain_report['duckdb_s'][n])} |"
            for n, c in chain_report["colsem_s"].items()
        ]
        if "ratio" in chain_report:
            md += [
                "",
                f"10,000/1,000 ratio: {chain_report['ratio']:.2f} (target <= "
                f"{chain_report['ratio_target']:g}). Native Spark is not run past "
                f"{NATIVE_CHAIN_LIMIT:,} aliases (it fails from 50 on).",
            ]
    if args.only in ("all", "respond"):
        md += [
            "",
            "Responses: each size and mode in its own process, streaming to /dev/null; vanilla "
            "= `toLocalIterator()` + `json.dumps` per row by hand, colsem = `colsem.respond_iter` "
            "(rows rendered to JSON text inside Spark). The same peak RSS at 1M and 10M rows is "
            "the memory bound.",
        ]
    (args.out / f"{stem}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
