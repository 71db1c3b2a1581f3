"""TPC-DS against vanilla Spark in its own JVM (colsem not loaded at all): with default settings,
colsem analyzes and optimizes every query to the same plans and schemas, and on a small generated
dataset a subset of the queries returns the same rows. The queries and tables are Spark's own
(peer/tpcds.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_tpcds import QUERIES, TPCDS, pytestmark  # noqa: F401  (the tpcds marker)
from tpcds_sides import run_side, write_data

EXECUTED = QUERIES[::4]  # every fourth query: 34 of 135, spread over the corpus


@pytest.fixture(scope="module")
def tpcds_data(spark, workdir: Path) -> Path:
    """Parquet files for the 24 tables, written once, read by both JVMs."""
    return write_data(spark, TPCDS, workdir / "tpcds_data")


@pytest.fixture(scope="module")
def both(tpcds_data: Path, workdir: Path) -> dict[str, dict]:
    """The two JVMs side by side (each is mostly one busy thread): half the wall time of one after
    the other."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        sides = {
            mode: pool.submit(
                run_side, mode, TPCDS, tpcds_data, workdir, EXECUTED, colsem=mode == "colsem"
            )
            for mode in ("vanilla", "colsem")
        }
        return {mode: side.result() for mode, side in sides.items()}


def test_sides_are_what_they_claim(both):
    assert both["vanilla"]["colsem_loaded"] is False
    assert both["colsem"]["colsem_loaded"] is True
    assert len(both["vanilla"]["plans"]) == len(QUERIES) == 135


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_schema_and_plans_equal_vanilla_spark(both, query):
    vanilla, colsem_ = both["vanilla"]["plans"][query.stem], both["colsem"]["plans"][query.stem]
    assert colsem_[0] == vanilla[0], "schema"
    assert colsem_[1] == vanilla[1], "analyzed plan"
    assert colsem_[2] == vanilla[2], "optimized plan"


@pytest.mark.parametrize("query", EXECUTED, ids=lambda p: p.stem)
def test_rows_equal_vanilla_spark(both, query):
    """The same names and rows (or, where the generated data makes the query fail, the same error)."""
    colsem_, vanilla = both["colsem"]["runs"][query.stem], both["vanilla"]["runs"][query.stem]
    assert (colsem_["columns"], colsem_.get("rows"), colsem_.get("error")) == (
        vanilla["columns"],
        vanilla.get("rows"),
        vanilla.get("error"),
    )


def test_generated_data_gives_rows(both):
    """The dataset is small but not empty-handed: a good share of the executed queries return rows."""
    with_rows = [q.stem for q in EXECUTED if both["vanilla"]["runs"][q.stem].get("rows")]
    assert len(with_rows) >= len(EXECUTED) // 3, with_rows


def test_default_star_shows_a_tagged_column(both):
    """Nothing configured: a table's colsem.hidden_columns property hides nothing from `*`."""
    for side in ("vanilla", "colsem"):
        run = both[side]["runs"]["events: SELECT *"]
        assert (run["columns"], run["rows"]) == (["id", "msg", "_ts"], ["1\ta\t10", "2\tb\t20"]), (
            side
        )
