"""TPC-DS (the queries and tables of Spark's own tests, from the line's spark-sql test jar on Maven
Central, peer/tpcds.py): with each colsem feature on, every query analyzes and optimizes to the
same plan as with it off (expression and CTE ids normalized)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from golden import running_line

sys.path.insert(0, str(ROOT))
from peer import tpcds as tpcds_corpus

TPCDS = tpcds_corpus.corpus(running_line())
QUERIES = TPCDS.queries()
FEATURES = ["spark.colsem.lateralAlias.enabled"]

pytestmark = [pytest.mark.tpcds, pytest.mark.long]


def _normalized(text: str) -> str:
    text = re.sub(r"#\d+L?", "#_", text)
    return re.sub(r"(CTERelation(?:Def|Ref)) \d+", r"\1 _", text)


@pytest.fixture(scope="module")
def tpcds(spark):
    session = spark.newSession()
    session.sql("CREATE DATABASE IF NOT EXISTS tpcds")
    session.sql("USE tpcds")
    for statement in TPCDS.create_statements():
        session.sql(statement)
    return session


def _plans(session, sql: str):
    qe = session.sql(sql)._jdf.queryExecution()
    return _normalized(qe.analyzed().toString()), _normalized(qe.optimizedPlan().toString())


def _physical(text: str) -> str:
    """The operator tree of a physical plan (each line's indentation and operator name): the
    arguments' text is cut at a length that depends on expression ids."""
    return "\n".join(
        re.match(r"[\s:+\-|*()\d]*[A-Za-z]*", line).group(0) for line in text.splitlines()
    )


# Each query's plans with every colsem setting at its default, made once: every test below compares
# one setting against them.
_DEFAULTS: dict[str, tuple[str, str, str, list]] = {}


def _default_plans(session, query: Path) -> tuple[str, str, str, list]:
    """(analyzed, optimized, physical operator tree, column types) under the default settings."""
    if query.stem not in _DEFAULTS:
        df = session.sql(query.read_text())
        qe = df._jdf.queryExecution()
        _DEFAULTS[query.stem] = (
            _normalized(qe.analyzed().toString()),
            _normalized(qe.optimizedPlan().toString()),
            _physical(qe.executedPlan().toString()),
            [f.dataType for f in df.schema.fields],
        )
    return _DEFAULTS[query.stem]


def test_corpus_is_complete():
    names = [q.stem for q in QUERIES]
    assert len(names) == tpcds_corpus.V1_4_QUERIES + tpcds_corpus.V2_7_QUERIES == 135
    assert names[:3] == ["q1", "q2", "q3"] and names[-1] == "q98-v2.7"
    assert {"q14a", "q14b", "q23a", "q23b", "q24a", "q24b", "q39a", "q39b", "q5a-v2.7"} <= set(
        names
    )
    assert len(TPCDS.tables()) == 24
    assert len(TPCDS.tables()["store_sales"]) == 23 and len(TPCDS.tables()["catalog_sales"]) == 34


@pytest.mark.parametrize("feature", FEATURES)
@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_feature_leaves_the_plan_unchanged(tpcds, feature, query):
    on = _default_plans(tpcds, query)[:2]
    tpcds.conf.set(feature, "false")
    try:
        assert _plans(tpcds, query.read_text()) == on
    finally:
        tpcds.conf.unset(feature)


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_star_strategies_that_hide_nothing_leave_the_plan_unchanged(tpcds, query):
    """Star strategies on, but no TPC-DS column is tagged or matches: every `*` goes through
    colsem's wrapping and expansion and must come out exactly as vanilla Spark's."""
    sql = query.read_text()
    default = _default_plans(tpcds, query)[:2]
    tpcds.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
    tpcds.conf.set("spark.colsem.star.excludePattern", "colsem_matches_no_tpcds_column")
    try:
        assert _plans(tpcds, sql) == default
    finally:
        tpcds.conf.unset("spark.colsem.star.exclude")
        tpcds.conf.unset("spark.colsem.star.excludePattern")


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_responses_leave_plans_without_lookups_alone(tpcds, query):
    """Typed responses: no TPC-DS query has a map or variant lookup, so colsem_with_presence adds
    no present column, and every output type renders (the json row plan analyzes)."""
    from colsem._respond import _with_presence, rendered_rows

    df = tpcds.sql(query.read_text())
    if len(set(df.columns)) == len(df.columns):  # format="json" needs distinct names
        with _with_presence(df) as (with_presence, present):
            assert present == [-1] * len(df.columns)
            assert with_presence.columns == df.columns
        with rendered_rows(df, "json") as rows:
            assert rows.schema.simpleString() == "struct<row:string>"
    with rendered_rows(df, "jdbc") as rows:
        assert rows.schema.simpleString() == "struct<row:string>"


# Spark 4.2 marks every phase of a query with its id, so a plan only planned is checked too.
PLANNED_PLANS_CHECKED = tuple(int(p) for p in running_line().split(".")) >= (4, 2)


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_schema_invariants_hold_and_leave_plans_unchanged(tpcds, query):
    """Every query analyzes, optimizes and plans under spark.colsem.invariants=error with no
    violation; the checks change no logical plan, and the physical plan only gains the execution
    check at its root (with the default, off, not even that)."""
    sql = query.read_text()
    off = _default_plans(tpcds, query)[:3]
    try:
        tpcds.conf.set("spark.colsem.invariants", "error")
        qe = tpcds.sql(sql)._jdf.queryExecution()
        checked = (
            _normalized(qe.analyzed().toString()),
            _normalized(qe.optimizedPlan().toString()),
            _physical(qe.executedPlan().toString()),
        )
    finally:
        tpcds.conf.unset("spark.colsem.invariants")
    assert checked[:2] == off[:2]
    assert "CheckedOutput" not in off[2]
    if PLANNED_PLANS_CHECKED:
        root, _, rest = checked[2].partition("\n")
        assert root == "CheckedOutput"
        assert "\n".join(line[3:] for line in rest.splitlines()) == off[2]
    else:
        # Before Spark 4.2 the physical checks run inside an action's SQL execution only
        # (docs/versions.md): a plan only planned is unchanged, and the query runs with every
        # check (over the empty tables) and no violation.
        assert checked[2] == off[2]
        try:
            tpcds.conf.set("spark.colsem.invariants", "error")
            tpcds.sql(sql).collect()
        finally:
            tpcds.conf.unset("spark.colsem.invariants")


DIALECTS = ["canonical", "postgres", "mysql", "sqlite"]


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_naming_spark_dialect_leaves_the_plan_unchanged(tpcds, query):
    sql = query.read_text()
    unset = _default_plans(tpcds, query)[:2]
    tpcds.conf.set("spark.colsem.naming.dialect", "spark")
    try:
        assert _plans(tpcds, sql) == unset
    finally:
        tpcds.conf.unset("spark.colsem.naming.dialect")


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_every_dialect_analyzes_with_the_same_types(tpcds, query):
    """Every query analyzes under every dialect; only names may change, never the column count or
    types."""
    sql = query.read_text()
    vanilla = _default_plans(tpcds, query)[3]
    try:
        for dialect in DIALECTS:
            tpcds.conf.set("spark.colsem.naming.dialect", dialect)
            assert [f.dataType for f in tpcds.sql(sql).schema.fields] == vanilla, dialect
    finally:
        tpcds.conf.unset("spark.colsem.naming.dialect")
