"""Chains: lateral aliases analyzed and run. A chain of N lateral aliases (a_i = a_{i-1} + 1;
N = 10 to 10,000, up to 1,000 with --quick) parsed and analyzed (`spark.sql(q)`): against native
Spark (which stops at 49 levels, "Max iterations", so run up to N = 1,000 only), in colsem's
process against the alias-free list of as many items with each chain's heap (a cost target), the
10,000/1,000 ratio (target <= 12: linear growth), DuckDB preparing the same query in the bench's
own process, and a chart, lca_chain.png. At run time: a 3-level lateral-alias query over
RUNTIME_ROWS rows against its hand-inlined form, and Python UDF calls per row behind an alias
used three times (1.0 = evaluated once)."""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.benchmark import (
    Across,
    InProcess,
    Process,
    Row,
    Samples,
    Settings,
    benchmark,
    num,
    show,
    timed,
)
from bench.chart import draw_chain_chart
from bench.startup import WORKER_HEAP

CHAINS = (10, 100, 1000, 2000, 5000, 10_000)
QUICK_CHAINS = (10, 100, 1000)  # --quick (CI): the long chains take minutes on a busy machine
NATIVE_CHAIN_LIMIT = 1000  # native Spark fails from 50 on; longer chains are not run on vanilla
CHAIN_RATIO = (1000, 10_000, 12.0)  # (from, to, target): analysis time grows linearly
# A chain of N aliases against the alias-free list of N items (issue 33's target).
CHAIN_COST_TARGET = 2.0
RUNTIME_ROWS = 100_000_000


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


def chain_rows(settings: Settings) -> list[Row]:
    first, last, target = CHAIN_RATIO
    return (
        [
            Across(
                f"lca_chain_{n}_s",
                f"analysis of a {n:,}-alias lateral chain (s; vanilla = native LCA)",
            )
            for n in settings.chains
        ]
        # Medians of colsem's processes, as scaling() reports them (--only costs has no vanilla
        # processes, so no scaling report, but the same ratio).
        + [
            InProcess(
                f"lca_chain_{last}_vs_{first}",
                f"colsem analysis: {first:,}-alias chain (left) vs {last:,}-alias "
                f"chain (right) (s; target ratio <= {target:g}: linear)",
                f"lca_chain_{first}_s",
                f"lca_chain_{last}_s",
                target=target,
            )
        ]
        + [
            InProcess(
                f"lca_chain_{n}_vs_alias_free",
                f"colsem analysis: {n:,} items without lateral aliases (left) vs "
                f"a chain of {n:,} lateral aliases (right) (s; one process, alternating; "
                f"ratio: median of the runs' ratios, target <= {CHAIN_COST_TARGET:g})",
                f"lca_free_{n}_s",
                f"lca_chain_{n}_s",
                ratio="runs",
                target=CHAIN_COST_TARGET,
            )
            for n in settings.chains
        ]
    )


@benchmark(rows=chain_rows, costs=True)
def chains(process: Process) -> dict[str, float]:
    """Analysis of each chain length; colsem's alternating with the chain's alias-free twin."""
    spark, iterations = process.spark, process.settings.iterations
    native = process.mode == "vanilla"
    out: dict[str, float] = {}

    def analyze(query: str) -> Callable[[], Any]:
        # What a user waits for: parse + analysis (spark.sql analyzes eagerly).
        return lambda: spark.sql(query)._jdf.queryExecution().analyzed()

    for n in process.settings.chains:
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


def chain_heap(spark, n: int, query: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
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


@benchmark(
    rows=lambda settings: [
        Across("lca_runtime_s", f"3-level lateral-alias query over {RUNTIME_ROWS:,} rows (s)"),
        Across("inlined_runtime_s", "the same query hand-inlined (s)"),
        Across("lca_udf_calls_per_row", "Python UDF calls per row, alias used 3 times"),
        InProcess(
            "lca_vs_inlined",
            "colsem runtime: hand-inlined (left) vs lateral aliases (right) (s)",
            "inlined_runtime_s",
            "lca_runtime_s",
        ),
    ]
)
def runtime(process: Process) -> dict[str, float]:
    """A lateral-alias query against its hand-inlined form over RUNTIME_ROWS rows, and how often a
    Python UDF behind an alias used three times runs."""
    spark, iterations = process.spark, process.settings.iterations
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


# ---------------------------------------------------------------- in the bench's own process
def duckdb_chains(chains: Sequence[int], iterations: int) -> dict[int, float]:
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


def scaling(samples: Samples, settings: Settings, out: Path) -> dict[str, object]:
    """Per chain length: colsem's and native Spark's median analysis time and DuckDB's; the
    10,000/1,000 ratio when both ran; the chart drawn into `out`. NaN (JSON null) = fails. Empty
    without both modes' processes."""
    if not (samples["colsem"] and samples["vanilla"]):
        return {}
    chains = settings.chains
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
    duckdb_s = duckdb_chains(chains, settings.iterations)
    out.mkdir(parents=True, exist_ok=True)
    draw_chain_chart(out / "lca_chain.png", colsem_s, native_s, duckdb_s, free_s)
    import duckdb

    report: dict[str, object] = {
        "measures": "colsem/native: spark.sql(q) to the analyzed plan (parse + analysis), fastest of "
        "the iterations, median of the processes; duckdb: PREPARE (parse, bind, optimize)",
        "duckdb_version": duckdb.__version__,
        "colsem_s": {str(n): num(t) for n, t in colsem_s.items()},
        "native_s": {str(n): num(t) for n, t in native_s.items()},
        "alias_free_s": {str(n): num(t) for n, t in free_s.items()},
        "duckdb_s": {str(n): num(t) for n, t in duckdb_s.items()},
        "chart": "lca_chain.png",
    }
    first, last, target = CHAIN_RATIO
    if first in colsem_s and last in colsem_s and colsem_s[first] > 0:
        report.update(ratio=colsem_s[last] / colsem_s[first], ratio_target=target)
    return report


def cost_rows(samples: Samples, chains: Sequence[int]) -> list[dict[str, Any]]:
    """Per chain length measured against its alias-free twin: medians of colsem's processes of the
    chain's and the list's time, of the runs' ratios, and of the chain's heap (chain_heap)."""
    colsem = samples["colsem"]

    def median(key: str, digits: int) -> Any:
        return num(statistics.median(s[key] for s in colsem), digits)

    return [
        {
            "aliases": n,
            "chain_s": median(f"lca_chain_{n}_s", 4),
            "alias_free_s": median(f"lca_free_{n}_s", 4),
            "ratio": num(
                statistics.median(s[f"lca_chain_{n}_s"] / s[f"lca_free_{n}_s"] for s in colsem), 3
            ),
            "peak_heap_mb": median(f"lca_chain_{n}_peak_heap_mb", 1),
        }
        for n in chains
        if colsem and f"lca_chain_{n}_peak_heap_mb" in colsem[0]
    ]


NATIVE_FAILS = [
    "",
    "`fails`: vanilla Spark's native lateral-alias support stops at 49 levels "
    '("Max iterations (100) reached for batch Resolution").',
]


def costs_markdown(rows: list[dict[str, Any]]) -> list[str]:
    return [
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
    ] + [
        f"| {c['aliases']:,} | {show(c['chain_s'])} | {show(c['alias_free_s'])} | "
        f"{show(c['ratio'])} | {show(c['peak_heap_mb'])} |"
        for c in rows
    ]


def scaling_markdown(report: dict[str, Any]) -> list[str]:
    md = [
        "",
        "Lateral-alias chains (`SELECT id AS a0, a0 + 1 AS a1, ... FROM range(10)`): colsem "
        "and native Spark time `spark.sql(q)` up to the analyzed plan (parse + analysis); DuckDB "
        f"{report['duckdb_version']} times `PREPARE` of the same query over `range(10) AS "
        "t(id)` (parse, bind, optimize), in the bench's own process. Chart: "
        "[lca_chain.png](lca_chain.png).",
        "",
        "| aliases | colsem (s) | Spark native (s) | DuckDB PREPARE (s) |",
        "|---|---|---|---|",
    ]
    md += [
        f"| {int(n):,} | {show(c)} | {show(report['native_s'][n])} | "
        f"{show(report['duckdb_s'][n])} |"
        for n, c in report["colsem_s"].items()
    ]
    if "ratio" in report:
        md += [
            "",
            f"10,000/1,000 ratio: {report['ratio']:.2f} (target <= "
            f"{report['ratio_target']:g}). Native Spark is not run past "
            f"{NATIVE_CHAIN_LIMIT:,} aliases (it fails from 50 on).",
        ]
    return md
