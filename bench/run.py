"""`make bench`: colsem vs vanilla Spark in the same run, written to bench/results/latest.{json,md}.

Benchmarks (each mode in its own JVM, modes alternating so drift hits both alike):
  startup   SparkSession start to first result (SELECT 1)
  analysis  analysis + optimization of every TPC-DS query on empty tables (from ../shared/tpcds,
            or $COLSEM_TPCDS_DIR); each query analyzed `--iterations` times, fastest kept
  naming_D  colsem's TPC-DS analysis with spark.colsem.naming.dialect=D (canonical, postgres, mysql,
            sqlite) vs the default `spark`, alternating query by query in one process
  lca_chain_N   analysis of a chain of N lateral aliases (a_i = a_{i-1} + 1); vanilla is Spark's
            native support, which stops at 49 levels ("Max iterations")
  lca_runtime   sum over 5M rows of a 3-level lateral-alias query vs the same query hand-inlined
  lca_udf_calls Python UDF calls per row behind an alias used three times (1.0 = evaluated once)
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
            result["tpcds_analysis_s"] = tpcds_analysis(spark, queries, iterations)
            result["tpcds_queries"] = len(queries)
            if mode == "colsem":
                result.update(naming_dialect_analysis(spark, queries, iterations))
        result.update(lateral_alias_benchmarks(spark, iterations))
        spark.stop()
    return result


def tpcds_analysis(spark, queries: List[Path], iterations: int) -> float:
    """Analysis + optimization of every query, the fastest of `iterations` each, summed."""
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
    return total


NAMING_DIALECTS = ("canonical", "postgres", "mysql", "sqlite")


def naming_dialect_analysis(spark, queries: List[Path], iterations: int) -> Dict[str, float]:
    """TPC-DS analysis + optimization with each spark.colsem.naming.dialect against the default
    (`spark`: the naming rule returns at once, plans identical to vanilla's), in the same process,
    alternating query by query (and which goes first) so JIT warm-up and machine load hit both
    alike."""
    key = "spark.colsem.naming.dialect"
    out: Dict[str, float] = {}
    for dialect in NAMING_DIALECTS:
        totals = {"spark": 0.0, dialect: 0.0}
        for path in queries:
            sql = path.read_text()
            best = {"spark": float("inf"), dialect: float("inf")}
            for i in range(iterations):
                for setting in (("spark", dialect) if i % 2 == 0 else (dialect, "spark")):
                    spark.conf.set(key, setting)
                    t0 = time.perf_counter()
                    qe = spark.sql(sql)._jdf.queryExecution()
                    qe.analyzed()
                    qe.optimizedPlan()
                    best[setting] = min(best[setting], time.perf_counter() - t0)
            for setting in totals:
                totals[setting] += best[setting]
        out[f"naming_{dialect}_tpcds_s"] = totals[dialect]
        out[f"naming_{dialect}_base_s"] = totals["spark"]
    spark.conf.unset(key)
    return out


CHAINS = (10, 100, 1000)
RUNTIME_ROWS = 100_000_000


def timed(fn, iterations: int) -> float:
    best = float("inf")
    for _ in range(iterations):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def lateral_alias_benchmarks(spark, iterations: int) -> Dict[str, float]:
    out: Dict[str, float] = {}
    for n in CHAINS:
        query = ("SELECT id AS a0, " + ", ".join(f"a{i - 1} + 1 AS a{i}" for i in range(1, n + 1))
                 + " FROM range(10)")
        try:
            out[f"lca_chain_{n}_s"] = timed(lambda: spark.sql(query)._jdf.queryExecution().analyzed(),
                                           iterations)
        except Exception:  # native Spark: Max iterations (100) reached for batch Resolution
            out[f"lca_chain_{n}_s"] = float("nan")
    lateral = (f"SELECT sum(c) FROM (SELECT id * 2 AS a, a + 1 AS b, b * 3 AS c "
               f"FROM range({RUNTIME_ROWS}))")
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
    spark.sql(f"SELECT sum(v + w + z) FROM (SELECT bench_plus_one(id) AS v, v * 2 AS w, v * 3 AS z "
              f"FROM range({rows}))").collect()
    out["lca_udf_calls_per_row"] = calls.value / rows
    return out


def run_mode(mode: str, iterations: int) -> Dict[str, float]:
    env = dict(os.environ, COLSEM_AUTOREGISTER="0")
    proc = subprocess.run([sys.executable, __file__, "--worker", mode, "--iterations", str(iterations)],
                          capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{mode} worker failed:\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


def _num(value: float, digits: int = 4):
    """JSON-safe number: None for a failed (NaN) measurement."""
    return None if value != value else round(value, digits)


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
    metrics = [("startup_s", "session start-up (s)"),
               ("tpcds_analysis_s", "TPC-DS analysis+optimization, all queries (s)")]
    metrics += [(f"lca_chain_{n}_s", f"analysis of a {n}-alias lateral chain (s; vanilla = native LCA)")
                for n in CHAINS]
    metrics += [("lca_runtime_s", f"3-level lateral-alias query over {RUNTIME_ROWS:,} rows (s)"),
                ("inlined_runtime_s", f"the same query hand-inlined (s)"),
                ("lca_udf_calls_per_row", "Python UDF calls per row, alias used 3 times")]
    for metric, label in metrics:
        if metric not in samples["vanilla"][0]:
            continue
        vanilla = statistics.median(s[metric] for s in samples["vanilla"])
        colsem_ = statistics.median(s[metric] for s in samples["colsem"])
        ratio = colsem_ / vanilla if vanilla == vanilla and vanilla > 0 else float("nan")
        benchmarks.append({"name": metric, "label": label, "vanilla": _num(vanilla),
                           "colsem": _num(colsem_), "ratio": _num(ratio, 3)})
    if "lca_runtime_s" in samples["colsem"][0]:
        lca = statistics.median(s["lca_runtime_s"] for s in samples["colsem"])
        inl = statistics.median(s["inlined_runtime_s"] for s in samples["colsem"])
        benchmarks.append({"name": "lca_vs_inlined",
                           "label": "colsem runtime: hand-inlined (left) vs lateral aliases (right) (s)",
                           "vanilla": _num(inl), "colsem": _num(lca), "ratio": _num(lca / inl, 3)})
    for dialect in NAMING_DIALECTS:
        if f"naming_{dialect}_tpcds_s" in samples["colsem"][0]:
            base = statistics.median(s[f"naming_{dialect}_base_s"] for s in samples["colsem"])
            named = statistics.median(s[f"naming_{dialect}_tpcds_s"] for s in samples["colsem"])
            benchmarks.append({"name": f"naming_{dialect}",
                               "label": f"colsem TPC-DS analysis+optimization: names `spark` (left) vs `{dialect}` (right) (s)",
                               "vanilla": _num(base), "colsem": _num(named), "ratio": _num(named / base, 3)})
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
    show = lambda v: "fails" if v is None else v
    md += [f"| {b['label']} | {show(b['vanilla'])} | {show(b['colsem'])} | {show(b['ratio'])} |"
           for b in benchmarks]
    md += ["", "`fails`: vanilla Spark's native lateral-alias support stops at 49 levels "
           "(\"Max iterations (100) reached for batch Resolution\")."]
    (RESULTS / "latest.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
