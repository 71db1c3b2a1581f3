"""Star: analysis of `SELECT *` on an N-column parquet table (N = 100, 1,000, 2,000, 5,000) whose
every tenth column is tagged hidden: default settings, and with spark.colsem.star.exclude=
TAGGED,PATTERN hiding them (vanilla: the same query, every column), process against process; and
the cost targets (100, 1,000 and 10,000 columns) measured in one JVM, vanilla's session beside
colsem's (`--only costs`)."""

from __future__ import annotations

import time
from typing import Any

from bench.benchmark import Across, InProcess, Process, Row, Settings, benchmark, timed
from bench.startup import vanilla_session_beside

STAR_WIDTHS = (100, 1000, 2000, 5000)


def star_rows(settings: Settings) -> list[Row]:
    rows: list[Row] = []
    for n in STAR_WIDTHS:
        rows += [
            Across(f"star_{n}_s", f"analysis of SELECT * on {n:,} columns, default settings (s)"),
            Across(
                f"star_{n}_hiding_s",
                f"analysis of SELECT * on {n:,} columns, colsem hiding "
                f"{n // 10:,} (TAGGED+PATTERN) vs vanilla * (s)",
            ),
        ]
    return rows


@benchmark(rows=star_rows)
def star(process: Process) -> dict[str, float]:
    """Analysis of SELECT * on wide catalog tables whose every tenth column is tagged hidden."""
    spark, iterations = process.spark, process.settings.iterations
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
        if process.mode == "colsem":  # ...the other half by the pattern
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


# The cost targets of `SELECT *` on wide tables (issue 55): colsem's default settings against a
# vanilla session, and hiding a tenth of the columns against vanilla's every column.
STAR_COST_WIDTHS = (100, 1000, 10000)
STAR_DEFAULT_TARGET = 1.01
STAR_HIDING_TARGET = 1.10


def star_cost_rows(settings: Settings) -> list[Row]:
    rows: list[Row] = []
    for n in STAR_COST_WIDTHS:
        common = (
            f"analysis of SELECT * on {n:,} columns in one JVM, sessions alternating: vanilla "
            "session (left) vs colsem"
        )
        rows += [
            InProcess(
                f"star_same_jvm_{n}",
                f"{common} with default settings (right) (s; ratio: median of the runs' ratios, "
                f"target <= {STAR_DEFAULT_TARGET:g})",
                f"star_same_jvm_{n}_vanilla_s",
                f"star_same_jvm_{n}_colsem_s",
                ratio="runs",
                target=STAR_DEFAULT_TARGET,
            ),
            InProcess(
                f"star_same_jvm_{n}_hiding",
                f"{common} hiding {n // 10:,} of them (TAGGED) (right) (s; ratio: median of the "
                f"runs' ratios, target <= {STAR_HIDING_TARGET:g})",
                f"star_same_jvm_{n}_vanilla_s",
                f"star_same_jvm_{n}_hiding_s",
                ratio="runs",
                target=STAR_HIDING_TARGET,
            ),
        ]
    return rows


@benchmark(rows=star_cost_rows, colsem_only=True, costs=True)
def star_same_jvm(process: Process) -> dict[str, float]:
    """Analysis of `SELECT *` on a wide table with every tenth column tagged hidden, in three
    sessions of one JVM (vanilla, colsem's defaults, colsem hiding with TAGGED), the order turning
    each round so JIT warm-up and machine load hit each alike; the fastest round of each."""
    spark = process.spark
    colsem = spark._jsparkSession
    hiding = colsem.newSession()
    hiding.conf().set("spark.colsem.star.exclude", "TAGGED")
    sessions = {"vanilla": vanilla_session_beside(spark), "colsem": colsem, "hiding": hiding}
    names = list(sessions)
    out: dict[str, float] = {}
    for n in STAR_COST_WIDTHS:
        table = f"bench_star_cost_{n}"
        columns = ", ".join(f"{'_sys' if i % 10 == 0 else 'c'}{i} INT" for i in range(n))
        hidden = ",".join(f"_sys{i}" for i in range(0, n, 10))
        spark.sql(
            f"CREATE TABLE {table} ({columns}) USING parquet "
            f"TBLPROPERTIES ('colsem.hidden_columns' = '{hidden}')"
        )
        query = f"SELECT * FROM {table}"
        widths = {name: len(s.sql(query).schema().fields()) for name, s in sessions.items()}
        if widths != {"vanilla": n, "colsem": n, "hiding": n - n // 10}:
            raise SystemExit(f"SELECT * on {n} columns: {widths}")
        best = dict.fromkeys(names, float("inf"))
        for i in range(max(process.settings.iterations, 3) + 1):  # round 0 warms up, untimed
            for name in names[i % 3 :] + names[: i % 3]:
                t0 = time.perf_counter()
                sessions[name].sql(query).queryExecution().analyzed()
                if i > 0:
                    best[name] = min(best[name], time.perf_counter() - t0)
        for name in names:
            out[f"star_same_jvm_{n}_{name}_s"] = best[name]
        spark.sql(f"DROP TABLE {table}")
    return out
