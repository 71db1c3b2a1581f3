"""The run's report: fuzz/results/latest.json and latest.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cases import SCOPES_KEY

if TYPE_CHECKING:
    from .runner import Fuzzer


def write(f: Fuzzer, elapsed: float, setup_seconds: float) -> dict[str, Any]:
    """The run's report, written to latest.json and latest.md in --report-dir."""
    report = {
        "seed": f.args.seed,
        "first": f.args.first,
        "count_requested": f.args.count,
        "seconds_limit": f.args.seconds,
        "stopped_early": f.stop_requested,
        "queries": f.queries,
        "lateral_queries": f.lateral,
        "lateral_scopes": f.primary.value,
        "lateral_scope_settings": [s.value for s in f.settings],
        "out_of_scope_queries": f.out_of_scope[f.primary.label],
        "out_of_scope_by_setting": {s.label: f.out_of_scope[s.label] for s in f.settings},
        "seconds": round(elapsed, 1),
        "setup_seconds": round(setup_seconds, 1),
        "queries_per_second": round(f.queries / max(elapsed, 1e-9), 2),
        "oracles": {o: dict(sorted(f.checks.stats[o].items())) for o in f.oracles},
        "shapes": {
            label: {s: dict(sorted(c.items())) for s, c in sorted(by_shape.items())}
            for label, by_shape in f.checks.shape_stats.items()
        },
        "differences": len(f.differences),
        "notes": f.notes,
        "minimal_failures": f.saved,
        "all_differences": f.differences[:200],
        "worker_starts": {"colsem": f.pool.colsem.starts, "vanilla": f.pool.vanilla.starts},
    }
    out = Path(f.args.report_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "latest.md").write_text(markdown(report))
    return report


def markdown(r: dict[str, Any]) -> str:
    settings = r["lateral_scope_settings"]
    scope_args = " ".join(f"--lateral-scopes '{v}'" for v in settings)
    lines = [
        "# colsem differential fuzzer: latest run",
        "",
        f'`make fuzz FUZZ_ARGS="--seed {r["seed"]} --count {r["count_requested"]} '
        f'--seconds {r["seconds_limit"]} {scope_args}"`',
        "",
        "| | |",
        "|---|---|",
        f"| seed | {r['seed']} |",
        f"| queries | {r['queries']} ({r['lateral_queries']} with lateral aliases) |",
    ]
    for value in settings:
        label = value or "default"
        lines.append(
            f"| {SCOPES_KEY} | {value or '(empty, the default)'}: every query; "
            f"{r['out_of_scope_by_setting'][label]} read an alias in a scope it leaves out "
            "(vanilla's refusal expected) |"
        )
    lines += [
        f"| seconds (after {r['setup_seconds']} s start-up) | {r['seconds']}"
        f"{' (stopped early by a signal)' if r.get('stopped_early') else ''} |",
        f"| queries/second | {r['queries_per_second']} |",
        f"| differences | {r['differences']} |",
        "",
        "| oracle | checked | differences | other counts |",
        "|---|---|---|---|",
    ]
    for o, st in r["oracles"].items():
        other = ", ".join(f"{k} {v}" for k, v in st.items() if k not in ("checked", "differences"))
        lines.append(f"| {o} | {st.get('checked', 0)} | {st.get('differences', 0)} | {other} |")
    lines.append("")
    labels = [v or "default" for v in settings]
    names = sorted({shape for label in labels for shape in r["shapes"].get(label, {})})
    if names:
        lines += [
            "Queries with lateral aliases by shape, per value of the setting (the inline oracle: same rows "
            "as the inlined form / both refused / differences; a query may hold several shapes; a "
            "query reading an alias in a scope the value leaves out is not counted there):",
            "",
            "| shape | " + " | ".join(labels) + " |",
            "|---" * (len(labels) + 1) + "|",
        ]
        for shape in names:
            cells = []
            for label in labels:
                st = r["shapes"].get(label, {}).get(shape, {})
                cells.append(
                    f"{st.get('same_rows', 0)} / {st.get('both_error', 0)} / {st.get('difference', 0)}"
                )
            lines.append(f"| {shape} | " + " | ".join(cells) + " |")
        lines.append("")
    for n in r["notes"]:
        lines.append(f"- {n}")
    if r["minimal_failures"]:
        lines += ["", "## Minimal failing queries", ""]
        for f in r["minimal_failures"]:
            lines += [
                f"### {f['oracle']}/{f['kind']} (query {f['index']})",
                "",
                "```sql",
                f["sql"],
                "```",
                "",
                "```json",
                json.dumps(f["detail"], indent=1)[:3000],
                "```",
                "",
            ]
    return "\n".join(lines) + "\n"
