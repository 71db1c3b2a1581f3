"""`make bench`: colsem vs vanilla Spark in the same run, written to bench/results/latest.{json,md}.

Benchmarks (each mode in its own JVM, modes alternating so drift hits both alike):
  startup   SparkSession start to first result (SELECT 1)
  analysis  analysis + optimization of every TPC-DS query on empty tables (from ../shared/tpcds,
            or $COLSEM_TPCDS_DIR); each query analyzed `--iterations` times, fastest kept
Reported: the median over `--runs` processes per mode, and colsem/vanilla ratios.
`--quick` runs everything once (CI keeps the script working; no timing is asserted).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"


def tpcds_dir() -> Path | None:
    folder = Path(os.environ.get("COLSEM_TPCDS_DIR", ROOT.parent / "shared" / "tpcds"))
    return folder if (folder / "schema.sql").exists() else None


def worker(mode: str, iterations: int) -> Dict[str, float]:
    """One process: time start-up, then TPC-DS analysis. Prints one JSON line."""
    started = time.perf_counter()
    from pyspark.sql import SparkSession

    with tempfile.TemporaryDirectory(prefix="colsem-bench-") as tmp:
        builder = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
                   .config("spark.sql.warehouse.dir", f"{tmp}/warehouse")
                   .config("spark.sql.catalogImplementation", "in-memory"))
        if mode == "colsem":
            import colsem

            colsem.configure(builder)
        spark = builder.getOrCreate()
        spark.sql("SELECT 1").collect()
        result = {"startup_s": time.perf_counter() - started}
        active = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
        if active != (mode == "colsem"):
            raise SystemExit(f"{mode} run has colsem active={active}")
        folder = tpcds_dir()
        if folder:
            text = (folder / "schema.sql").read_text()
            body = "\n".join(l for l in text.splitlines() if not l.strip().startswith("--"))
            for stmt in (s.strip() for s in body.split(";")):
                if stmt:
                    spark.sql(stmt)
            queries = sorted((folder / "queries").glob("*.sql"))
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
        spark.stop()
    return result


def run_mode(mode: str, iterations: int) -> Dict[str, float]:
    env = dict(os.environ, COLSEM_AUTOREGISTER="0")
    proc = subprocess.run([sys.executable, __file__, "--worker", mode, "--iterations", str(iterations)],
                          capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{mode} worker failed:\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one run, one iteration (for CI)")
    parser.add_argument("--runs", type=int, default=3, help="processes per mode (default 3)")
    parser.add_argument("--iterations", type=int, default=3, help="analyses per query per process")
    parser.add_argument("--worker", choices=["vanilla", "colsem"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.iterations)), flush=True)
        return 0
    runs, iterations = (1, 1) if args.quick else (args.runs, args.iterations)
    if tpcds_dir() is None:
        print("TPC-DS corpus not found (../shared/tpcds or $COLSEM_TPCDS_DIR): startup only", file=sys.stderr)
    samples: Dict[str, List[Dict[str, float]]] = {"vanilla": [], "colsem": []}
    for i in range(runs):
        for mode in (("vanilla", "colsem") if i % 2 == 0 else ("colsem", "vanilla")):
            t0 = time.perf_counter()
            samples[mode].append(run_mode(mode, iterations))
            print(f"[bench] run {i + 1}/{runs} {mode:7s} {samples[mode][-1]}  ({time.perf_counter() - t0:.0f}s)",
                  file=sys.stderr, flush=True)
    import pyspark

    benchmarks = []
    for metric, label in [("startup_s", "session start-up (s)"),
                          ("tpcds_analysis_s", "TPC-DS analysis+optimization, all queries (s)")]:
        if metric not in samples["vanilla"][0]:
            continue
        vanilla = statistics.median(s[metric] for s in samples["vanilla"])
        colsem_ = statistics.median(s[metric] for s in samples["colsem"])
        benchmarks.append({"name": metric, "label": label, "vanilla": round(vanilla, 4),
                           "colsem": round(colsem_, 4), "ratio": round(colsem_ / vanilla, 3)})
    report = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                          "python": platform.python_version()},
              "spark": pyspark.__version__, "runs_per_mode": runs, "iterations": iterations,
              "quick": args.quick, "benchmarks": benchmarks}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2) + "\n")
    md = [f"# colsem benchmarks", "",
          f"Spark {report['spark']}, {report['machine']['cpus']} CPUs, {report['machine']['platform']}; "
          f"median of {runs} process(es) per mode, modes alternating{' (quick mode)' if args.quick else ''}.", "",
          "| benchmark | vanilla | colsem | ratio |", "|---|---|---|---|"]
    md += [f"| {b['label']} | {b['vanilla']} | {b['colsem']} | {b['ratio']} |" for b in benchmarks]
    (RESULTS / "latest.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
