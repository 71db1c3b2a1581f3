"""TPC-DS (../shared/tpcds, or $COLSEM_TPCDS_DIR): with each colsem feature on, every query
analyzes and optimizes to the same plan as with it off (expression and CTE ids normalized)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import ROOT

TPCDS = Path(os.environ.get("COLSEM_TPCDS_DIR", ROOT.parent / "shared" / "tpcds"))
QUERIES = sorted(TPCDS.glob("queries/*.sql"), key=lambda p: (int(re.sub(r"\D", "", p.stem)), p.stem))
FEATURES = ["spark.colsem.lateralAlias.enabled"]

pytestmark = pytest.mark.skipif(
    not (TPCDS / "schema.sql").exists(),
    reason=f"TPC-DS corpus not found at {TPCDS}: put the team's shared/tpcds folder beside the "
           "project, or set COLSEM_TPCDS_DIR to a folder with schema.sql and queries/")


def _normalized(text: str) -> str:
    text = re.sub(r"#\d+L?", "#_", text)
    return re.sub(r"(CTERelation(?:Def|Ref)) \d+", r"\1 _", text)


@pytest.fixture(scope="module")
def tpcds(spark):
    session = spark.newSession()
    session.sql("CREATE DATABASE IF NOT EXISTS tpcds")
    session.sql("USE tpcds")
    body = "\n".join(line for line in (TPCDS / "schema.sql").read_text().splitlines()
                     if not line.strip().startswith("--"))
    for statement in body.split(";"):
        if statement.strip():
            session.sql(statement)
    return session


def _plans(session, sql: str):
    qe = session.sql(sql)._jdf.queryExecution()
    return _normalized(qe.analyzed().toString()), _normalized(qe.optimizedPlan().toString())


def test_corpus_is_complete():
    assert len(QUERIES) == 103


@pytest.mark.parametrize("feature", FEATURES)
@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_feature_leaves_the_plan_unchanged(tpcds, feature, query):
    sql = query.read_text()
    tpcds.conf.set(feature, "false")
    off = _plans(tpcds, sql)
    tpcds.conf.set(feature, "true")
    assert _plans(tpcds, sql) == off


DIALECTS = ["canonical", "postgres", "mysql", "sqlite"]


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_naming_spark_dialect_leaves_the_plan_unchanged(tpcds, query):
    sql = query.read_text()
    tpcds.conf.unset("spark.colsem.naming.dialect")
    unset = _plans(tpcds, sql)
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
    vanilla = [f.dataType for f in tpcds.sql(sql).schema.fields]
    try:
        for dialect in DIALECTS:
            tpcds.conf.set("spark.colsem.naming.dialect", dialect)
            assert [f.dataType for f in tpcds.sql(sql).schema.fields] == vanilla, dialect
    finally:
        tpcds.conf.unset("spark.colsem.naming.dialect")
