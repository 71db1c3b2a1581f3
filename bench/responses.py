"""Responses: stream an N-row query result as a jdbc response to /dev/null, each size and mode in
its own process: the Python process's peak RSS and rows/s; colsem = colsem.respond_iter, vanilla
= toLocalIterator + json.dumps per row by hand. Run at 1M and 10M rows (one small size with
--quick): a flat peak RSS is the memory bound."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.benchmark import divide, num
from bench.runner import run_worker

RESPOND_ROWS = (1_000_000, 10_000_000)
QUICK_RESPOND_ROWS = (20_000,)  # one size: --quick keeps the script working (CI)
RESPOND_SQL = (
    "SELECT id, id * 0.5 AS half, concat('row-', id) AS label, id % 7 = 0 AS flag, "
    "CAST(id AS DECIMAL(20, 2)) AS amount FROM range(0, {rows}, 1, {partitions})"
)
MARKDOWN = [
    "",
    "Responses: each size and mode in its own process, streaming to /dev/null; vanilla "
    "= `toLocalIterator()` + `json.dumps` per row by hand, colsem = `colsem.respond_iter` "
    "(rows rendered to JSON text inside Spark). The same peak RSS at 1M and 10M rows is "
    "the memory bound.",
]


def peak_rss_mb() -> float:
    """This process's peak RSS (Linux's VmHWM). Not getrusage's ru_maxrss: across fork and exec
    that keeps the parent's peak, so a worker started by a big bench process reported the
    parent's RSS as its own, and no growth while streaming."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0  # kB
    raise SystemExit("the respond benchmarks read the peak RSS from /proc/self/status (Linux)")


def worker(mode: str, rows: int) -> dict[str, float]:
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


def benchmarks(quick: bool) -> list[dict[str, Any]]:
    """Peak RSS and throughput of streaming responses, colsem vs by hand, at two result sizes (one
    with --quick): the report's rows."""
    sizes = QUICK_RESPOND_ROWS if quick else RESPOND_ROWS
    out: list[dict[str, Any]] = []
    for rows in sizes:
        result = {}
        for mode in ("colsem", "vanilla"):
            t0 = time.perf_counter()
            result[mode] = run_worker(
                f"respond {mode}", ["--respond-worker", mode, "--rows", str(rows)]
            )
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
                    "vanilla": num(v, 1),
                    "colsem": num(c, 1),
                    "ratio": num(divide(c, v), 3),
                }
            )
    return out
