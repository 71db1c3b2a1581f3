"""TPC-DS: analysis + optimization of every query of Spark's own TPC-DS (the line's spark-sql test
jar, peer/tpcds.py) on empty tables, across the modes' processes; in colsem's process with each
feature switched off and on; and in one JVM beside a vanilla session (same_jvm, a cost target),
with the RuleExecutor's metering of colsem's rules."""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

from bench.benchmark import Across, InProcess, Process, Samples, benchmark
from bench.startup import vanilla_session_beside

ROOT = Path(__file__).resolve().parent.parent
# colsem's default settings against a vanilla session on TPC-DS in one JVM (issue 33's target).
SAME_JVM_TARGET = 1.01


def corpus():  # type: ignore[no-untyped-def]
    """The running line's TPC-DS queries and tables (fetched once, then read from the cache)."""
    import pyspark

    sys.path.insert(0, str(ROOT))
    from peer import tpcds

    return tpcds.corpus(".".join(pyspark.__version__.split(".")[:2]))


@benchmark(
    rows=lambda settings: [
        Across("tpcds_analysis_s", "TPC-DS analysis+optimization, every query run (s)")
    ]
)
def analysis(process: Process) -> dict[str, float]:
    """Every query analyzed `iterations` times in this process's session, the fastest kept."""
    total = 0.0
    for path in process.queries:
        sql = path.read_text()
        best = float("inf")
        for _ in range(process.settings.iterations):
            t0 = time.perf_counter()
            qe = process.spark.sql(sql)._jdf.queryExecution()
            qe.analyzed()
            qe.optimizedPlan()
            best = min(best, time.perf_counter() - t0)
        total += best
    return {"tpcds_analysis_s": total, "tpcds_queries": len(process.queries)}


# A setting switched in colsem's process: (metric, left label, right label, left settings, right
# settings). Keys missing from a side are unset (the default).
Switch = tuple[str, str, str, dict[str, str], dict[str, str]]

# Each feature off and on. The star pattern hides no TPC-DS column, so both sides give the same
# plans and the difference is the strategy's own cost.
FEATURE_SWITCHES: list[Switch] = [
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
]


def switched_analysis(process: Process, switches: list[Switch]) -> dict[str, float]:
    """TPC-DS analysis + optimization with each setting switched, in the same process,
    alternating query by query (and which side goes first) so JIT warm-up and machine load hit
    both alike. `<metric>_left_s` and `<metric>_right_s` are the totals of the fastest runs."""
    spark = process.spark
    keys = sorted({k for *_, left, right in switches for k in (*left, *right)})

    def apply(settings: dict[str, str]) -> None:
        for key in keys:
            if key in settings:
                spark.conf.set(key, settings[key])
            else:
                spark.conf.unset(key)

    out: dict[str, float] = {}
    for metric, _, _, left, right in switches:
        totals = [0.0, 0.0]
        for path in process.queries:
            sql = path.read_text()
            best = [float("inf"), float("inf")]
            for i in range(process.settings.iterations):
                for side in (0, 1) if i % 2 == 0 else (1, 0):
                    apply((left, right)[side])
                    t0 = time.perf_counter()
                    qe = spark.sql(sql)._jdf.queryExecution()
                    qe.analyzed()
                    qe.optimizedPlan()
                    best[side] = min(best[side], time.perf_counter() - t0)
            totals[0] += best[0]
            totals[1] += best[1]
        out[f"{metric}_left_s"], out[f"{metric}_right_s"] = totals
    apply({})
    return out


def switch_rows(switches: list[Switch]) -> list[InProcess]:
    return [
        InProcess(
            metric,
            f"colsem TPC-DS analysis+optimization in one process: "
            f"{left_label} (left) vs {right_label} (right) (s)",
            f"{metric}_left_s",
            f"{metric}_right_s",
        )
        for metric, left_label, right_label, _, _ in switches
    ]


@benchmark(rows=lambda settings: switch_rows(FEATURE_SWITCHES), colsem_only=True)
def feature_switches(process: Process) -> dict[str, float]:
    return switched_analysis(process, FEATURE_SWITCHES)


@benchmark(
    rows=lambda settings: [
        InProcess(
            "tpcds_same_jvm",
            "TPC-DS analysis+optimization in one JVM, sessions alternating per "
            "query: vanilla session (left) vs colsem with default settings (right) (s; "
            f"ratio: median of the runs' ratios, target <= {SAME_JVM_TARGET:g})",
            "same_jvm_vanilla_s",
            "same_jvm_colsem_s",
            ratio="runs",
            target=SAME_JVM_TARGET,
        )
    ],
    colsem_only=True,
    costs=True,
)
def same_jvm(process: Process) -> dict[str, float]:
    """TPC-DS analysis + optimization in a vanilla session and in colsem's, in one JVM, alternating
    query by query (and which goes first): the overhead of colsem's default settings, free of the
    process-to-process spread that separate JVMs show on a busy machine."""
    spark = process.spark
    sessions = {"vanilla": vanilla_session_beside(spark), "colsem": spark._jsparkSession}
    totals = {"vanilla": 0.0, "colsem": 0.0}
    for path in process.queries:
        sql = path.read_text()
        best = {"vanilla": float("inf"), "colsem": float("inf")}
        for i in range(process.settings.iterations + 1):  # the first round warms up, untimed
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
        **colsem_rule_seconds(process),
    }


RULE_METRIC = re.compile(r"^(\S+)\s+\d+ / (\d+)\s+\d+ / (\d+)\s*$")


def colsem_rule_seconds(process: Process) -> dict[str, float]:
    """Where colsem's share of the same_jvm pass goes: one more analysis + optimization of every
    query in colsem's session, metered by Spark's RuleExecutor (each analyzer and optimizer rule's
    time and runs, all sessions of the JVM alike, so nothing else may run meanwhile). Keys:
    `rule_s:<rule>` and `rule_runs:<rule>` for colsem's rules, `rules_total_s` for every rule."""
    spark = process.spark
    meter = spark._jvm.org.apache.spark.sql.catalyst.rules.RuleExecutor
    meter.resetMetrics()
    analyzed = spark._jvm.java.util.ArrayList()
    for path in process.queries:
        qe = spark._jsparkSession.sql(path.read_text()).queryExecution()
        analyzed.add(qe.analyzed())
        qe.optimizedPlan()
    out: dict[str, float] = {"rules_total_s": 0.0}
    # The check rules, which RuleExecutor does not meter, on the same analyzed plans (fastest of
    # three passes; their runs are the queries).
    checks = spark._jvm.io.colsem.status.CheckRuleMeter.nanosPerPass(
        spark._jsparkSession, analyzed, 3
    )
    for name in checks.keySet():
        out[f"rule_s:{name}"] = checks.get(name) / 1e9
        out[f"rule_runs:{name}"] = len(process.queries)
    for line in meter.dumpTimeSpent().splitlines():
        m = RULE_METRIC.match(line.strip())
        if m:
            name, nanos, runs = m.group(1), int(m.group(2)), int(m.group(3))
            out["rules_total_s"] += nanos / 1e9
            if name.startswith("io.colsem."):
                out[f"rule_s:{name}"] = nanos / 1e9
                out[f"rule_runs:{name}"] = runs
    return out


def rule_rows(samples: Samples) -> list[tuple[str, float, int]]:
    """(rule, median seconds, median runs) of colsem's metered rules, slowest first, then every
    rule's total ("all rules")."""
    colsem = samples["colsem"]
    if not colsem or "rules_total_s" not in colsem[0]:
        return []
    names = sorted({k.split(":", 1)[1] for s in colsem for k in s if k.startswith("rule_s:")})
    rows = [
        (
            name,
            round(statistics.median(s.get(f"rule_s:{name}", 0.0) for s in colsem), 6),
            int(statistics.median(s.get(f"rule_runs:{name}", 0) for s in colsem)),
        )
        for name in names
    ]
    rows.sort(key=lambda r: -r[1])
    total = round(statistics.median(s["rules_total_s"] for s in colsem), 4)
    return rows + [("all rules", total, 0)]


def rules_markdown(rows: list[tuple[str, float, int]]) -> list[str]:
    return [
        "",
        "colsem's analyzer and optimizer rules in one more pass over every TPC-DS query in "
        "colsem's session (Spark's RuleExecutor metering; median of the runs; every rule of "
        "the pass, Spark's included, is the last row). colsem's check rules, which Spark does "
        "not meter, are timed on the same analyzed plans (io.colsem.status.CheckRuleMeter, "
        "fastest of three passes; not in the last row). Planner strategies and columnar rules "
        "are not listed.",
        "",
        "| rule | seconds per pass | runs per pass |",
        "|---|---|---|",
    ] + [
        f"| `{name}` | {secs} | {runs or ''} |" if name != "all rules" else f"| {name} | {secs} | |"
        for name, secs, runs in rows
    ]
