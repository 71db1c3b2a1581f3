"""Invariants: the cost of the schema-invariant checks, which run in analysis, optimization and
planning: analysis + optimization + physical planning (executedPlan) of every TPC-DS query, in
colsem's process under spark.colsem.invariants off, warn and error, alternating per query."""

from __future__ import annotations

import time

from bench.benchmark import Across, InProcess, Process, Row, Settings, benchmark

MODES = ("off", "warn", "error")


def planning_rows(settings: Settings) -> list[Row]:
    rows: list[Row] = [
        Across(
            "tpcds_planning_s",
            "TPC-DS analysis+optimization+planning, every query run (s; "
            "colsem with invariants off)",
        )
    ]
    for m in MODES[1:]:
        rows += [
            Across(
                f"invariants_{m}",
                f"TPC-DS planning, invariants={m}: vanilla (left) vs colsem (s)",
                vanilla_key="tpcds_planning_s",
                colsem_key=f"tpcds_planning_{m}_s",
            ),
            # Within one process, modes alternating per query: the checks' own cost.
            InProcess(
                f"invariants_{m}_vs_off",
                f"TPC-DS planning in one process: invariants=off (left) vs {m} (s)",
                "tpcds_planning_s",
                f"tpcds_planning_{m}_s",
                ratio="runs",
            ),
        ]
    return rows


@benchmark(rows=planning_rows)
def planning(process: Process) -> dict[str, float]:
    """Planning time of all TPC-DS queries, fastest of `iterations` per query; with colsem, once
    per spark.colsem.invariants mode, the modes alternating within each query."""
    spark, colsem_active = process.spark, process.mode == "colsem"
    modes = MODES if colsem_active else (None,)
    totals = {m: 0.0 for m in modes}
    for path in process.queries:
        sql = path.read_text()
        best = {m: float("inf") for m in modes}
        for i in range(process.settings.iterations + 1):  # the first round warms up, untimed
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
