"""The report's Markdown form (the JSON form is the report itself)."""

from __future__ import annotations

from typing import Any

from . import compare

LISTED_IN_MARKDOWN = 40  # allowed differences shown per class and setting (all in the JSON)


def _code(sql: str) -> str:
    one = " ".join(sql.split())
    return "`" + (one if len(one) <= 300 else one[:300] + " ...").replace("`", "ˋ") + "`"


def _entries(entries: list[dict[str, Any]], limit: int = 0) -> list[str]:
    out = []
    shown = entries[:limit] if limit else entries
    for e in shown:
        kind = f" ({e['kind']})" if e.get("kind") else ""
        out += [
            f"- **{e['file']}** statement {e['statement']}{kind}: {_code(e['sql'])}",
            f"  - vanilla: {e['vanilla']}",
            f"  - colsem: {e['colsem']}",
        ]
        for r in e.get("reports", [])[:3]:
            out.append(f"  - report: {' '.join(r.split())[:400]}")
    if limit and len(entries) > limit:
        out.append(f"- ... {len(entries) - limit} more in the JSON report")
    return out


def markdown(r: dict[str, Any]) -> str:
    lines = [
        f"# Spark's SQL test corpus under vanilla Spark and colsem: Spark {r['line']}",
        "",
        f"`{r['command']}`" + (" — **partial run** (stopped by a signal)" if r["partial"] else ""),
        "",
        "| | |",
        "|---|---|",
        f"| Spark | {r['spark_version']} |",
        f"| corpus (spark-sql test jar) | {r['corpus_version']} |",
        f"| colsem commit | {r['colsem_commit']} |",
        f"| selection | {r['selection']}: {r['files']} files, {r['statements_per_file_run']} statements |",
        f"| seconds | {r['seconds']} |",
        "",
        "| setting | files | statements | statements/s | " + " | ".join(compare.CLASSES) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(compare.CLASSES),
    ]
    for name, s in r["settings"].items():
        counts = " | ".join(str(s["counts"][c]) for c in compare.CLASSES)
        lines.append(
            f"| {name} | {s['files']} | {s['statements']} | {s['statements_per_second']} | {counts} |"
        )
    lines += [
        "",
        "Classes: `same_rows`/`same_error` agree (schema and rows, or error class and "
        "SQLSTATE); `nondeterministic`: rows differ and a second run of the query in the same "
        "engine gave other rows; `skipped`: statements after a lost JVM in the same file; "
        "`difference`: everything else. Allowed differences:",
        "",
    ]
    lines += [f"- `{k}`: {v}" for k, v in r["allowed_classes"].items()]
    for name, s in r["settings"].items():
        lines += [
            "",
            f"## Setting `{name}`"
            + (f" ({', '.join(f'{k}={v}' for k, v in s['conf'].items())})" if s["conf"] else ""),
            "",
        ]
        if s["vanilla_cached_files"]:
            lines.append(
                f"Vanilla outcomes of {s['vanilla_cached_files']} files came from the cache."
            )
            lines.append("")
        lines.append(f"### Differences ({len(s['differences'])})")
        lines.append("")
        lines += _entries(s["differences"]) or ["None."]
        for cls, entries in s["allowed"].items():
            limit = 0 if cls == compare.INVARIANT_DUPLICATE else LISTED_IN_MARKDOWN
            lines += ["", f"### {cls} ({len(entries)})", ""] + _entries(entries, limit)
        if s["worker_lost"] or s["aborted"]:
            lines += ["", "### Lost JVMs", ""]
            lines += [
                f"- {w['file']} statement {w['statement']}: {', '.join(w['jvm'])} JVM lost (timeout "
                "or crash), restarted"
                for w in s["worker_lost"]
            ]
            lines += [
                f"- {a['file']}: {a['statements']} statements from {a['from_statement']} skipped"
                for a in s["aborted"]
            ]
    lines += ["", f"## Skipped files ({len(r['skipped_files'])})", ""]
    lines += [f"- {n}: {reason}" for n, reason in sorted(r["skipped_files"].items())] or ["None."]
    if r["config_dims"]:
        lines += [
            "",
            "## Files with --CONFIG_DIM (run with the first config set of each dimension)",
            "",
        ]
        lines += [f"- {n}: dimensions {', '.join(d)}" for n, d in sorted(r["config_dims"].items())]
    return "\n".join(lines) + "\n"
