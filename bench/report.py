"""The report: from every process's figures, the benchmark table (each family's rows, in the
families' order), the families' own sections, written to <out>/latest.{json,md} (a full run) or
latest-<part>.{json,md} (`--only <part>`)."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

from bench import chains, responses, tpcds
from bench.benchmark import Samples, Settings, show
from bench.families import benchmarks


def load_average() -> float | None:
    """The 1-minute load average, so a reader can tell a busy machine's figures from a quiet one's."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def write(
    out: Path,
    only: str,
    quick: bool,
    runs: int,
    settings: Settings,
    samples: Samples,
    responded: list[dict[str, Any]],
    load_at_start: float | None,
) -> None:
    """Writes the report's two files (and, through chains.scaling, the chart) and prints its
    Markdown. responded: the response benchmarks' rows (bench/responses.py), run apart."""
    import pyspark

    rows = [
        row
        for b in benchmarks()
        for spec in b.rows(settings)
        if (row := spec.row(samples)) is not None
    ]
    rows += responded
    scaling = chains.scaling(samples, settings, out)
    rule_rows = tpcds.rule_rows(samples)
    chain_costs = chains.cost_rows(samples, settings.chains)
    limit = settings.queries
    report = {
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_start": load_at_start,
            "load_average_end": load_average(),
        },
        "spark": pyspark.__version__,
        "runs_per_mode": runs,
        "iterations": settings.iterations,
        "quick": quick,
        "tpcds_queries_per_run": limit or "all",
        "benchmarks": rows,
        "lca_chains": scaling,
        "colsem_rules": [
            {"rule": name, "seconds_per_pass": secs, "runs_per_pass": n}
            for name, secs, n in rule_rows
        ],
        "lca_chain_costs": chain_costs,
    }
    out.mkdir(parents=True, exist_ok=True)
    stem = "latest" if only == "all" else f"latest-{only}"
    (out / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
    md = [
        "# colsem benchmarks",
        "",
        f"Spark {report['spark']}, {report['machine']['cpus']} CPUs, {report['machine']['platform']}; "
        + (
            f"median of {runs} process(es) per mode, modes alternating"
            if runs
            else "response streaming only"
        )
        + f"{' (quick mode)' if quick else ''}"
        + (f"; the first {limit} TPC-DS queries" if limit else "")
        + "; 1-minute load average "
        f"{report['machine']['load_average_start']} at the start, {report['machine']['load_average_end']} "
        "at the end (other work on the machine slows both modes alike, but widens the spread: ratios "
        "measured in one process, modes alternating per query, are the steadiest).",
        "",
        "| benchmark | vanilla | colsem | ratio |",
        "|---|---|---|---|",
    ]
    md += [
        f"| {b['label']} | {show(b['vanilla'])} | {show(b['colsem'])} | {show(b['ratio'])} |"
        for b in rows
    ]
    if only in ("all", "analysis"):
        md += chains.NATIVE_FAILS
    if rule_rows:
        md += tpcds.rules_markdown(rule_rows)
    if chain_costs:
        md += chains.costs_markdown(chain_costs)
    if scaling:
        md += chains.scaling_markdown(scaling)
    if only in ("all", "respond"):
        md += responses.MARKDOWN
    (out / f"{stem}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
