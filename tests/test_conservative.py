"""Default settings are a conservative extension: the sample queries give vanilla Spark's exact
schema, rows and errors with colsem loaded. Vanilla runs in its own JVM without the jar."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SESSION_PRELUDE, TESTS, result_of, run_python
from golden import INPUTS, run_statement, statements

SAMPLES = INPUTS / "vanilla_sample.sql"


def test_sample_queries_match_vanilla_spark(spark, workdir: Path):
    queries = statements(SAMPLES.read_text())
    proc = run_python(
        SESSION_PRELUDE
        + f"""
sys.path.insert(0, {str(TESTS)!r})
from conftest import create_tables
from golden import run_statement
spark = (local_builder().config("spark.sql.warehouse.dir", {str(workdir / "vanilla-warehouse")!r})
         .getOrCreate())
create_tables(spark)
queries = json.loads({json.dumps(json.dumps(queries))})
emit(extensions=spark.conf.get("spark.sql.extensions", None), status=status_of(spark),
     results=[run_statement(spark, q) for q in queries])
""",
        env={"COLSEM_AUTOREGISTER": "0"},
    )
    vanilla = result_of(proc)
    assert vanilla["extensions"] is None and vanilla["status"]["active"] == "false"
    session = spark.newSession()
    for query, expected in zip(queries, vanilla["results"]):
        assert run_statement(session, query) == expected, query
    assert len(vanilla["results"]) == len(queries) >= 15
