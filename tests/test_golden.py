"""Runs every golden SQL file against the shared colsem session (each file in its own
session.newSession(), so SET and temp views stay inside it)."""

from __future__ import annotations

import difflib
import os

import pytest

from golden import INPUTS, RESULTS, render, run_statement, statements

CASES = sorted(p.stem for p in INPUTS.glob("*.sql"))


@pytest.mark.parametrize("name", CASES)
def test_golden_file(spark, name: str):
    session = spark.newSession()
    actual = "\n".join(render(sql, run_statement(session, sql))
                       for sql in statements((INPUTS / f"{name}.sql").read_text()))
    expected_path = RESULTS / f"{name}.sql.out"
    if os.environ.get("COLSEM_GOLDEN_REGENERATE") == "1":
        expected_path.write_text(actual)
    if not expected_path.exists():
        pytest.fail(f"{expected_path} is missing: run with COLSEM_GOLDEN_REGENERATE=1 and review it")
    expected = expected_path.read_text()
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            "expected", "actual"))
        pytest.fail(f"{name}.sql differs from {expected_path.name}:\n{diff}")


def test_there_are_golden_files():
    assert len(CASES) >= 3
