"""Runs every golden SQL file against the shared colsem session (each file in its own
session.newSession(), so SET and temp views stay inside it)."""

from __future__ import annotations

import difflib
import os

import pytest
from golden import (
    INPUTS,
    RESULTS,
    default_line,
    expected_result,
    record_result,
    render,
    run_statement,
    running_line,
    statements,
    version_property,
)

CASES = sorted(p.stem for p in INPUTS.glob("*.sql"))


@pytest.mark.parametrize("name", CASES)
def test_golden_file(spark, name: str):
    session = spark.newSession()
    actual = "\n".join(
        render(sql, run_statement(session, sql))
        for sql in statements((INPUTS / f"{name}.sql").read_text())
    )
    line = running_line()
    if os.environ.get("COLSEM_GOLDEN_REGENERATE") == "1":
        record_result(name, line, actual)
    expected_path = expected_result(name, line)
    if not expected_path.exists():
        pytest.fail(
            f"{expected_path} is missing: run with COLSEM_GOLDEN_REGENERATE=1 and review it"
        )
    expected = expected_path.read_text()
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), "expected", "actual"
            )
        )
        pytest.fail(f"{name}.sql differs from {expected_path.relative_to(RESULTS)}:\n{diff}")


def test_there_are_golden_files():
    assert len(CASES) >= 3


def test_line_results_are_reviewed_differences():
    """Each results/<line>/ file belongs to an input and a known line, and differs from the
    default line's output (else it is stale: the default output applies)."""
    lines = {p.name for p in RESULTS.iterdir() if p.is_dir()}
    known = set(version_property("lines").split(",")) - {default_line()}
    assert lines <= known, lines - known
    for line in lines:
        for path in (RESULTS / line).glob("*.sql.out"):
            name = path.name[: -len(".sql.out")]
            assert name in CASES, path
            assert path.read_text() != (RESULTS / path.name).read_text(), f"{path} is stale"
