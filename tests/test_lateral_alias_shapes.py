"""Lateral aliases wherever a select-list name can be meant (tests/sql/inputs/lateral_alias_shapes.sql,
annotated as tests/lateral_shapes.py says): each statement answers exactly as its hand-inlined
query does on vanilla Spark, DuckDB agrees where it answers, and docs/lateral-aliases.md's table of
shapes × Spark native × DuckDB × colsem is these results (`COLSEM_DOCS_REGENERATE=1` rewrites it)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ROOT
from docs_sections import check_generated_section
from golden import SCOPES_KEY, format_value, is_ordered, run_statement
from lateral_shapes import ShapeStatement, shape_statements

LCA = "spark.colsem.lateralAlias.enabled"
WIDE = "WHERE,SUBQUERY"  # the docs table's second colsem column
STATEMENTS = shape_statements()
QUERIES = [s for s in STATEMENTS if not s.setup]
DOCS = ROOT / "docs" / "lateral-aliases.md"
BEGIN, END = (
    "<!-- shapes table: tests/test_lateral_alias_shapes.py -->",
    "<!-- end of shapes table -->",
)


def _duckdb_run(con: Any, sql: str) -> dict[str, Any]:
    try:
        cur = con.execute(sql)
        names = [d[0] for d in cur.description]
        rows = ["\t".join(format_value(v) for v in row) for row in cur.fetchall()]
        return {"names": names, "rows": rows if is_ordered(sql) else sorted(rows)}
    except Exception as exc:  # duckdb's errors share no base class worth naming here
        return {"error": str(exc).splitlines()[0]}


@pytest.fixture(scope="module")
def outcomes(spark) -> dict[str, dict[str, Any]]:
    """Per statement: colsem's result, native Spark's (the feature off), the hand-inlined query's
    on vanilla Spark, and DuckDB's."""
    duckdb = pytest.importorskip("duckdb")
    session = spark.newSession()
    con = duckdb.connect()
    for s in STATEMENTS:
        if s.setup and SCOPES_KEY not in s.sql:
            run = run_statement(session, s.sql)
            assert "error" not in run, (s.sql, run)
            con.execute(s.sql)
    out: dict[str, dict[str, Any]] = {}
    for s in QUERIES:
        session.conf.set(LCA, "true")
        # colsem with the file's scopes, and with each value the docs table shows
        by_scopes = {}
        for scopes in dict.fromkeys([s.scopes, "", WIDE]):
            session.conf.set(SCOPES_KEY, scopes)
            by_scopes[scopes] = run_statement(session, s.sql)
        session.conf.set(SCOPES_KEY, s.scopes)
        entry: dict[str, Any] = {
            "colsem": by_scopes[s.scopes],
            "default": by_scopes[""],
            "wide": by_scopes[WIDE],
        }
        if "error" not in entry["colsem"]:
            entry["names"] = session.sql(s.sql).columns
        session.conf.set(SCOPES_KEY, "")
        session.conf.set(LCA, "false")
        entry["native"] = run_statement(session, s.sql)
        if s.inlined:
            entry["inlined"] = run_statement(session, s.inlined)
            if "error" not in entry["inlined"]:
                entry["inlined_names"] = session.sql(s.inlined).columns
        session.conf.set(LCA, "true")
        if s.duckdb:
            entry["duckdb"] = _duckdb_run(con, s.sql)
        out[s.sql] = entry
    return out


def _ids(statements: list[ShapeStatement]) -> list[str]:
    return [" ".join(s.sql.split())[:90] for s in statements]


INLINED = [s for s in QUERIES if s.inlined]
WITH_DUCKDB = [s for s in QUERIES if s.duckdb]


def test_every_answer_has_its_hand_inlined_query(outcomes):
    assert all(s.shape for s in QUERIES), [s.sql for s in QUERIES if not s.shape]
    unproven = [
        s.sql for s in QUERIES if "error" not in outcomes[s.sql]["colsem"] and not s.inlined
    ]
    assert not unproven, "each statement colsem answers needs its `-- inlined:` form"


@pytest.mark.parametrize("stmt", INLINED, ids=_ids(INLINED))
def test_answers_exactly_as_the_hand_inlined_query(outcomes, stmt):
    entry = outcomes[stmt.sql]
    assert "error" not in entry["inlined"], ("the hand-inlined query fails", entry["inlined"])
    assert entry["colsem"] == entry["inlined"]
    assert entry["names"] == entry["inlined_names"]


@pytest.mark.parametrize("stmt", WITH_DUCKDB, ids=_ids(WITH_DUCKDB))
def test_duckdb_gives_the_same_rows_where_it_answers(outcomes, stmt):
    entry = outcomes[stmt.sql]
    duck = entry["duckdb"]
    if "error" in duck:
        return  # recorded in the docs table: colsem answers where DuckDB refuses
    assert "error" not in entry["colsem"], ("DuckDB answers, colsem refuses", entry["colsem"])
    assert duck["rows"] == entry["colsem"]["rows"]
    assert duck["names"] == entry["names"]


SCOPED = [s for s in QUERIES if s.scopes]


@pytest.mark.parametrize("stmt", SCOPED, ids=_ids(SCOPED))
def test_by_default_the_scoped_shapes_answer_as_natively(outcomes, stmt):
    """The WHERE and subquery shapes, without extraScopes: what Spark's native support does
    (select aliases in the list only), the WHERE and subquery aliases refused as vanilla refuses
    them."""
    entry = outcomes[stmt.sql]
    assert entry["default"] == entry["native"]


def test_the_default_refuses_the_designs_non_goals(outcomes):
    for sql in (
        "SELECT k AS x FROM lt WHERE x > 1",
        "SELECT k AS x, (SELECT x FROM lt2) AS y FROM lt",
    ):
        entry = outcomes[sql]
        assert (
            entry["default"]
            == entry["native"]
            == {
                "error": "UNRESOLVED_COLUMN.WITH_SUGGESTION",
                "sqlState": "42703",
                "parameters": {"objectName": "`x`", "proposal": "`k`, `v`"},
            }
        )


def _outcome(result: dict[str, Any]) -> str:
    return f"refused (`{result['error']}`)" if "error" in result else "answers"


def shapes_table(outcomes: dict[str, dict[str, Any]]) -> str:
    rows = [
        f"| shape | example | Spark native | DuckDB | colsem (default) | colsem (extraScopes={WIDE}) |",
        "|---|---|---|---|---|---|",
    ]
    for s in QUERIES:
        if not s.first_of_shape:
            continue
        entry = outcomes[s.sql]
        duck = entry.get("duckdb")
        duck_cell = (
            "not the same syntax" if duck is None else ("refuses" if "error" in duck else "answers")
        )
        cells = []
        for key, scopes in (("default", ""), ("wide", WIDE)):
            cell = _outcome(entry[key])
            if s.inlined and scopes == s.scopes and "error" not in entry[key]:
                cell = "answers, as the hand-inlined query"
            cells.append(cell)
        example = " ".join(s.sql.split()).replace("|", "\\|")
        rows.append(
            f"| {s.shape} | `{example}` | {_outcome(entry['native'])} | {duck_cell} | {' | '.join(cells)} |"
        )
    return "\n".join(rows)


def test_docs_table_is_these_results(outcomes):
    check_generated_section(
        DOCS, BEGIN, END, shapes_table(outcomes), "run `make test PYTEST_ARGS='-k shapes'`"
    )
