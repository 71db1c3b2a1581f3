"""`make bench` (`python -m bench`): colsem vs vanilla Spark in the same run, written to
bench/results/latest.{json,md}.

Benchmarks (each mode in its own JVM, modes alternating so drift hits both alike), one module per
family, each module's docstring says what it measures:
  startup     SparkSession start to first result (SELECT 1)
  tpcds       analysis + optimization of every TPC-DS query on empty tables (Spark's own queries
              and tables, from the line's spark-sql test jar on Maven Central: peer/tpcds.py);
              each query analyzed `--iterations` times, fastest kept; in colsem's process each
              feature switched off and on, query by query (feature_X), and same_jvm: colsem's
              session against a session built without any extension beside it, alternating query
              by query (the default-mode overhead, free of the spread between separate JVMs; its
              ceiling is tpcds.SAME_JVM_TARGET)
  invariants  analysis + optimization + physical planning of every TPC-DS query; in colsem's
              process with spark.colsem.invariants off, warn and error, alternating per query
  naming      naming_D: spark.colsem.naming.dialect=D (canonical, postgres, mysql, sqlite) vs the
              default `spark` over TPC-DS in colsem's process (each side warm)
  chains      lca_chain_N: analysis (parse + analyze) of a chain of N lateral aliases (N = 10 to
              10,000, up to 1,000 with --quick) against native Spark (up to N = 1,000) and the
              alias-free list, each chain's heap, the 10,000/1,000 ratio (target <= 12: linear),
              DuckDB preparing the same query, a chart (lca_chain.png); lca_runtime: sum over 100M
              rows of a 3-level lateral-alias query vs the same query hand-inlined; lca_udf_calls:
              Python UDF calls per row behind an alias used three times (1.0 = evaluated once)
  shapes      shape_X: the lateral-alias shapes native Spark refuses: analysis and a run, colsem
              as written vs vanilla running the hand-inlined query (both alternating in colsem's)
  star        star_N: analysis of `SELECT *` on an N-column table, default and hiding 10 %;
              star_same_jvm_N (N = 100, 1,000, 10,000): the same in one JVM, a vanilla session
              beside colsem's, default (target <= 1.01) and hiding (target <= 1.10)
  responses   respond_stream_N: stream an N-row result as a jdbc response to /dev/null: peak RSS
              of the Python process and rows/s (1M and 10M rows: a flat peak RSS is the bound)
  streaming   the cost per micro-batch of a stateful streaming query: vanilla, colsem's defaults,
              star.exclude=TAGGED and invariants=error in one JVM (latest-streaming.{json,md})
Reported: the median over `--runs` processes per mode, and colsem/vanilla ratios.
`--only streaming` runs bench/streaming.py alone; a full `make bench` (`--only all`) runs it first.
`--only costs` runs colsem's processes alone, each measuring the cost targets only: same_jvm
(with the RuleExecutor's metering of colsem's rules and the timing of its check rules), the wide
`SELECT *` in one JVM, and the lateral chains against their
alias-free twins, with the 10,000/1,000 ratio and each chain's heap (the heap pools' peak during
its analysis; bench/results/latest-costs.{json,md}).
`--quick` runs everything once, on the first QUICK_QUERIES TPC-DS queries and small responses (CI
keeps the script working; no timing is asserted); `--queries N` limits a full run the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench import report, responses, runner, tpcds, worker
from bench.benchmark import Settings
from bench.chains import CHAINS, QUICK_CHAINS
from bench.shapes import QUICK_SHAPE_ROWS, SHAPE_ROWS

RESULTS = Path(__file__).resolve().parent / "results"
QUICK_QUERIES = 10


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    # A worker process's own arguments (bench/runner.py starts them).
    parser.add_argument("--costs-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", choices=["vanilla", "colsem"], help=argparse.SUPPRESS)
    parser.add_argument("--respond-worker", choices=["vanilla", "colsem"], help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--chains", default=",".join(map(str, CHAINS)), help=argparse.SUPPRESS)
    parser.add_argument("--shape-rows", type=int, default=SHAPE_ROWS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        chains = tuple(int(n) for n in args.chains.split(","))
        settings = Settings(args.iterations, args.queries, chains, args.shape_rows, args.costs_only)
        print(json.dumps(worker.measure(args.worker, settings)), flush=True)
        return 0
    if args.respond_worker:
        print(json.dumps(responses.worker(args.respond_worker, args.rows)), flush=True)
        return 0
    if args.only in ("all", "streaming"):
        runner.streaming(args.out, args.quick)
        if args.only == "streaming":
            return 0
    load_at_start = report.load_average()
    runs, iterations = (1, 1) if args.quick else (args.runs, args.iterations)
    settings = Settings(
        iterations,
        args.queries or (QUICK_QUERIES if args.quick else 0),
        QUICK_CHAINS if args.quick else CHAINS,
        QUICK_SHAPE_ROWS if args.quick else SHAPE_ROWS,
        costs_only=args.only == "costs",
    )
    if args.only == "respond":
        runs = 0
    corpus = tpcds.corpus()  # fetched here once, before the workers read it from the cache
    print(
        f"[bench] TPC-DS: {len(corpus.queries())} queries from Spark {corpus.version}'s test jar",
        file=sys.stderr,
    )
    samples = runner.run(runs, settings)
    responded = responses.benchmarks(args.quick) if args.only in ("all", "respond") else []
    report.write(args.out, args.only, args.quick, runs, settings, samples, responded, load_at_start)
    return 0
