"""The regression files: a minimal failing query appended to tests/sql/inputs/fuzz_regressions.sql,
its expected output from vanilla Spark in tests/sql/results/fuzz_regressions.sql.out."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import data
from .cases import SCOPES, SCOPES_KEY
from .pool import Worker

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
GOLDEN_INPUT = ROOT / "tests" / "sql" / "inputs" / "fuzz_regressions.sql"
GOLDEN_OUTPUT = ROOT / "tests" / "sql" / "results" / "fuzz_regressions.sql.out"


def save_regression(entry: dict[str, Any], workdir: Path, force: bool = False) -> None:
    """Append the minimal query to tests/sql/inputs/fuzz_regressions.sql; its expected
    output comes from vanilla Spark (the query itself, or its inlined form for a lateral
    alias query), rendered by tests/golden.py."""
    header = [
        "-- Minimal queries the differential fuzzer (make fuzz) found failing; expected",
        "-- output from vanilla Spark (for the inline oracle: the inlined form's rows).",
        "-- The tables are the fuzzer's (fuzz/data.py); aliases are read in WHERE and in",
        "-- subqueries too, as in the runs that found them.",
    ]
    creates = [data.create_sql(t, properties=False) for t in data.SCHEMAS] + [
        f"SET {SCOPES_KEY}={','.join(SCOPES)}"
    ]
    queries: list[tuple[str, str | None]] = []
    if GOLDEN_INPUT.exists():
        sys.path.insert(0, str(ROOT / "tests"))
        from golden import statements

        queries = [
            (stmt, None)
            for stmt in statements(GOLDEN_INPUT.read_text())
            if not stmt.upper().startswith(("CREATE", "SET"))
        ]
    if any(s == entry["sql"] for s, _ in queries):
        if not force:
            return
        queries = [(s, i) for s, i in queries if s != entry["sql"]]
    queries.append((entry["sql"], entry["inlined"]))
    inlined_of = inlined_map()
    inlined_of[entry["sql"]] = entry["inlined"]
    reference = [inlined_of.get(s) or s for s, _ in queries]
    # A fresh vanilla JVM set up as the pytest session is (golden output depends on it).
    golden = Worker("vanilla", workdir, {}, golden=True)
    golden.start()
    answer = golden.call([{"op": "golden", "statements": creates + reference}], timeout=600)[0]
    golden.stop()
    text = answer["text"]
    for s, ref in zip([q for q, _ in queries], reference):
        if ref != s:
            text = text.replace(f"-- !query\n{ref}\n", f"-- !query\n{s}\n", 1)
    body = "\n".join(header) + "\n" + ";\n\n".join(creates + [s for s, _ in queries]) + ";\n"
    GOLDEN_INPUT.write_text(body)
    GOLDEN_OUTPUT.write_text(text)
    map_path = RESULTS / "regressions_inlined.json"
    map_path.parent.mkdir(parents=True, exist_ok=True)
    map_path.write_text(json.dumps(inlined_of, indent=1, sort_keys=True) + "\n")
    print(f"[fuzz] saved to {GOLDEN_INPUT.relative_to(ROOT)}", file=sys.stderr)


def rerender_regressions(workdir: Path) -> None:
    """Re-renders tests/sql/results/fuzz_regressions.sql.out from vanilla Spark."""
    sys.path.insert(0, str(ROOT / "tests"))
    from golden import statements

    queries = [
        s
        for s in statements(GOLDEN_INPUT.read_text())
        if not s.upper().startswith(("CREATE", "SET"))
    ]
    last = queries.pop()
    inlined = inlined_map().get(last)
    save_regression({"sql": last, "inlined": inlined}, workdir, force=True)


def inlined_map() -> dict[str, str | None]:
    path = RESULTS / "regressions_inlined.json"
    return json.loads(path.read_text()) if path.exists() else {}
