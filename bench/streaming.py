"""Streaming, `make bench` (and `python -m bench --only streaming`): the cost colsem adds to each
micro-batch of a stateful streaming query, written to bench/results/latest-streaming.{json,md}.

In one JVM: a vanilla session (no extension, built beside colsem's:
startup.vanilla_session_beside), colsem's session with default settings, one with
spark.colsem.star.exclude=TAGGED and one with spark.colsem.invariants=error. Each runs the same stateful aggregation (update mode, into the noop
sink) over its own folder of parquet files. Per batch, every mode gets one new file and processes
it in one micro-batch (a restart from its checkpoint with trigger availableNow, so no query polls
while another runs); the modes alternate in order from batch to batch. Reported per mode: the
median over the batches (warm-up batches left out) of the micro-batch's planning
(`durationMs.queryPlanning`), its execution (`durationMs.addBatch`) and their sum, and the ratios
to vanilla. Target: default <= 1.01.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
QUERY = "SELECT k, count(*) AS c, sum(v) AS s, max(v) AS m FROM src GROUP BY k"
MODES = ("vanilla", "default", "star_tagged", "invariants_error")
WARMUP = 3


def sessions(spark):  # type: ignore[no-untyped-def]
    """The three modes' sessions, sharing one SparkContext."""
    from pyspark.sql import SparkSession

    from bench.startup import vanilla_session_beside

    vanilla = SparkSession(spark.sparkContext, vanilla_session_beside(spark))
    checked = spark.newSession()
    checked.conf.set("spark.colsem.invariants", "error")
    hiding = spark.newSession()
    hiding.conf.set("spark.colsem.star.exclude", "TAGGED")
    return {
        "vanilla": vanilla,
        "default": spark.newSession(),
        "star_tagged": hiding,
        "invariants_error": checked,
    }


def write_file(folder: Path, batch: int, rows: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    ids = range(batch * rows, (batch + 1) * rows)
    pq.write_table(
        pa.table({"k": [i % 97 for i in ids], "v": list(ids)}), folder / f"part-{batch:05}.parquet"
    )


def one_batch(session, folder: Path, checkpoint: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Processes what is new in `folder` in one micro-batch, restarting from `checkpoint`."""
    session.readStream.schema("k BIGINT, v BIGINT").parquet(str(folder)).createOrReplaceTempView(
        "src"
    )
    query = (
        session.sql(QUERY)
        .writeStream.format("noop")
        .outputMode("update")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(checkpoint))
        .start()
    )
    query.awaitTermination()
    progress = [p for p in query.recentProgress if p["numInputRows"] > 0][-1]
    durations = progress["durationMs"]
    planning, execution = float(durations["queryPlanning"]), float(durations["addBatch"])
    return {"planning_ms": planning, "execution_ms": execution, "batch_ms": planning + execution}


def measure(batches: int, rows: int) -> dict[str, object]:
    import colsem
    from pyspark.sql import SparkSession

    spark = colsem.configure(
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.ui.showConsoleProgress", "false")
    ).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    work = Path(tempfile.mkdtemp(prefix="colsem-bench-streaming-"))
    by_mode = sessions(spark)
    samples: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    started = time.monotonic()
    for batch in range(batches):
        order = MODES if batch % 2 == 0 else tuple(reversed(MODES))
        for mode in order:
            folder = work / mode / "files"
            folder.mkdir(parents=True, exist_ok=True)
            write_file(folder, batch, rows)
            samples[mode].append(one_batch(by_mode[mode], folder, work / mode / "checkpoint"))
        if batch % 10 == 9:
            print(
                f"[bench streaming] {batch + 1}/{batches} batches, "
                f"{time.monotonic() - started:.0f} s",
                file=sys.stderr,
            )
    spark.stop()
    kept = {mode: s[WARMUP:] if len(s) > WARMUP else s for mode, s in samples.items()}
    medians = {
        mode: {key: statistics.median(x[key] for x in s) for key in s[0]}
        for mode, s in kept.items()
    }
    ratios = {
        mode: {
            key: round(value / medians["vanilla"][key], 3) if medians["vanilla"][key] else None
            for key, value in medians[mode].items()
        }
        for mode in MODES
        if mode != "vanilla"
    }
    return {
        "query": QUERY,
        "batches": batches,
        "measured_batches": len(kept["vanilla"]),
        "rows_per_batch": rows,
        "median_ms": medians,
        "ratio_to_vanilla": ratios,
        "target": "default batch_ms ratio <= 1.01",
    }


def markdown(result: dict) -> str:  # type: ignore[type-arg]
    lines = [
        "# Cost per micro-batch (bench/streaming.py)",
        "",
        f"`{result['query']}` in update mode into the noop sink; {result['rows_per_batch']:,} rows "
        f"a batch; medians over {result['measured_batches']} of {result['batches']} batches "
        f"(the first {WARMUP} left out); one JVM, modes alternating per batch.",
        "",
        "| mode | planning ms | execution ms | batch ms | batch ratio to vanilla |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for mode, m in result["median_ms"].items():
        ratio = result["ratio_to_vanilla"].get(mode, {}).get("batch_ms", 1.0)
        lines.append(
            f"| {mode} | {m['planning_ms']:.1f} | {m['execution_ms']:.1f} | "
            f"{m['batch_ms']:.1f} | {ratio} |"
        )
    lines += ["", f"Target: {result['target']}.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", type=int, default=60, help="micro-batches per mode")
    parser.add_argument("--rows", type=int, default=20_000, help="rows per batch file")
    parser.add_argument("--quick", action="store_true", help="6 batches (CI keeps it working)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    result = measure(6 if args.quick else args.batches, args.rows)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latest-streaming.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "latest-streaming.md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
