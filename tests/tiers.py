"""`make tiers`: which tier runs each test, from pytest's own collection (no Spark is started).

For each tier's marker expression (the Makefile's TIER_* variables) pytest collects the suite on
this venv's line; the table counts the collected tests per file and tier, and the last line says
how many collected tests no tier selects (CI runs every tier, so that number must be 0)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(marker: str | None, files: list[str] | None = None) -> list[str]:
    """The node ids pytest collects under ``-m marker`` (all of them for None), in ``files`` (all
    for None)."""
    selection = ["-m", marker] if marker else []
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + selection
        + (files or []),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    if proc.returncode not in (0, 5) or (not ids and marker is None):
        raise SystemExit(f"pytest --collect-only failed (exit {proc.returncode}):\n{proc.stdout}")
    return ids


def per_file(ids: list[str]) -> Counter[str]:
    return Counter(node.split("::")[0] for node in ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--core", required=True, help="`make test`'s marker expression")
    parser.add_argument("--long", required=True, help="`make test-long`'s")
    parser.add_argument("--line", required=True, help="`make test-line`'s (the other lines)")
    parser.add_argument("--line-files", required=True, help="the files `make test-line` runs")
    args = parser.parse_args(argv)
    tiers = {
        "test": args.core,
        "test-long": args.long,
        "formats": "formats",
        "test-line": args.line,
    }
    everything = collected(None)
    line_files = args.line_files.split()
    chosen = {
        name: collected(marker, line_files if name == "test-line" else None)
        for name, marker in tiers.items()
    }
    counts = {name: per_file(ids) for name, ids in chosen.items()}
    total = per_file(everything)
    width = max(len(name) for name in total)
    print(f"{'file':<{width}}  {'all':>5}  " + "  ".join(f"{n:>9}" for n in tiers))
    for name in sorted(total):
        cells = "  ".join(f"{counts[t][name]:>9}" for t in tiers)
        print(f"{name:<{width}}  {total[name]:>5}  {cells}")
    cells = "  ".join(f"{len(chosen[t]):>9}" for t in tiers)
    print(f"{'total':<{width}}  {len(everything):>5}  {cells}")
    run_by_ci = set(chosen["test"]) | set(chosen["test-long"]) | set(chosen["formats"])
    missing = [node for node in everything if node not in run_by_ci]
    print(f"in no tier: {len(missing)}")
    for node in missing:
        print(f"  {node}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
