"""Naming: the cost of each output-naming dialect, spark.colsem.naming.dialect=D against the
default `spark`, over every TPC-DS query in colsem's process (as bench/tpcds.py switches
features; each side warm: timing both in one process is what makes a few per cent visible)."""

from __future__ import annotations

from bench.benchmark import Process, benchmark
from bench.tpcds import Switch, switch_rows, switched_analysis

DIALECTS = ("canonical", "postgres", "mysql", "sqlite")
DIALECT_SWITCHES: list[Switch] = [
    (
        f"naming_{d}",
        "naming.dialect=spark (default)",
        f"naming.dialect={d}",
        {},
        {"spark.colsem.naming.dialect": d},
    )
    for d in DIALECTS
]


@benchmark(rows=lambda settings: switch_rows(DIALECT_SWITCHES), colsem_only=True)
def dialects(process: Process) -> dict[str, float]:
    return switched_analysis(process, DIALECT_SWITCHES)
