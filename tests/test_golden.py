"""Runs every golden SQL file against the shared colsem session (each file in its own
session.newSession(), so SET and temp views stay inside it), and checks its results and its
analyzed plans (tests/sql/analyzer-results)."""

from __future__ import annotations

import difflib
import os

import pytest
from golden import (
    ANALYZER_RESULTS,
    INPUTS,
    RESULTS,
    default_line,
    expected_result,
    record_result,
    render,
    render_analysis,
    run_with_plan,
    running_line,
    statements,
    version_property,
)

CASES = sorted(p.stem for p in INPUTS.glob("*.sql"))


# Lines whose analyzed plans vary between runs of the same query: Spark 3.5's own lateral-alias
# rule (ResolveLateralColumnAliasReference) gathers a rewritten Aggregate's list in a hash set, so
# its order follows expression ids. Their answers are checked; their plans are not kept.
UNSTABLE_PLAN_LINES = {"3.5"}


@pytest.mark.parametrize("name", CASES)
def test_golden_file(spark, name: str):
    session = spark.newSession()
    ran = [
        (sql, *run_with_plan(session, sql))
        for sql in statements((INPUTS / f"{name}.sql").read_text())
    ]
    line = running_line()
    failures = []
    renderings = {RESULTS: lambda sql, result, plan: render(sql, result)}
    if line not in UNSTABLE_PLAN_LINES:
        renderings[ANALYZER_RESULTS] = render_analysis
    for folder, rendered in renderings.items():
        actual = "\n".join(rendered(sql, result, plan) for sql, result, plan in ran)
        if os.environ.get("COLSEM_GOLDEN_REGENERATE") == "1":
            record_result(name, line, actual, folder)
        expected_path = expected_result(name, line, folder)
        if not expected_path.exists():
            failures.append(f"{expected_path} is missing: run `make golden` and review it")
            continue
        expected = expected_path.read_text()
        if actual != expected:
            diff = "".join(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "expected", "actual"
                )
            )
            failures.append(
                f"{name}.sql differs from {expected_path.relative_to(expected_path.parents[1])}:\n{diff}"
            )
    if failures:
        pytest.fail("\n".join(failures))


def test_there_are_golden_files():
    assert len(CASES) >= 3


@pytest.mark.parametrize("folder", [RESULTS, ANALYZER_RESULTS], ids=["results", "analyzer-results"])
def test_line_results_are_reviewed_differences(folder):
    """Each <line>/ file belongs to an input and a known line, and differs from the default line's
    output (else it is stale: the default output applies); each default file has its input."""
    lines = {p.name for p in folder.iterdir() if p.is_dir()}
    known = set(version_property("lines").split(",")) - {default_line()}
    if folder == ANALYZER_RESULTS:
        known -= UNSTABLE_PLAN_LINES
    assert lines <= known, lines - known
    assert {p.name[: -len(".sql.out")] for p in folder.glob("*.sql.out")} == set(CASES)
    for line in lines:
        for path in (folder / line).glob("*.sql.out"):
            name = path.name[: -len(".sql.out")]
            assert name in CASES, path
            assert path.read_text() != (folder / path.name).read_text(), f"{path} is stale"
