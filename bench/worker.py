"""One worker process: its session (colsem's or vanilla's), the TPC-DS tables, then every
benchmark that runs in its mode, in the families' order; its figures are printed as one JSON
line (bench/runner.py reads it)."""

from __future__ import annotations

import tempfile

from bench import tpcds
from bench.benchmark import Process, Settings
from bench.families import benchmarks
from bench.startup import start_session


def measure(mode: str, settings: Settings) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="colsem-bench-") as tmp:
        spark, startup_s = start_session(mode, tmp)
        corpus = tpcds.corpus()
        for stmt in corpus.create_statements():
            spark.sql(stmt)
        queries = corpus.queries()[: settings.queries or None]
        process = Process(spark, mode, settings, queries, startup_s)
        result: dict[str, float] = {}
        for b in benchmarks():
            if b.runs_in(mode, settings.costs_only):
                result.update(b.measure(process))
        spark.stop()
    return result
