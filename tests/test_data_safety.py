"""Data-safety sweep: with star strategies on, every write path either keeps the stored values of
hidden columns or fails clearly, leaving the table as it was. Table contents are compared before
and after each write, on real parquet tables."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from golden import condition, running_line
from pyspark.errors import AnalysisException

# On Spark 3.5 star strategies apply to SQL text only (docs/versions.md): a DataFrame's select("*")
# lists every column, hidden ones included, so writing it back keeps every value there.
DATAFRAME_STAR_KEEPS = running_line() == "3.5"


def dataframe_star(outcome: str, partitioned_on_3_5: str = "kept") -> tuple[str, str]:
    """The outcome for a plain and for a partitioned table."""
    return ("kept", partitioned_on_3_5) if DATAFRAME_STAR_KEEPS else (outcome, outcome)


ROWS = "(1, 'a', 10, 's1'), (2, 'b', 20, 's2')"
_names = itertools.count()


def make_table(session, partitioned: bool = False) -> str:
    name = f"safety_{next(_names)}"
    session.sql(f"DROP TABLE IF EXISTS {name}")
    session.sql(
        f"CREATE TABLE {name} (id INT, msg STRING, _seq BIGINT DEFAULT 42, _src STRING) USING parquet "
        + ("PARTITIONED BY (_src) " if partitioned else "")
        + "TBLPROPERTIES ('colsem.hidden_columns' = '_seq,_src')"
    )
    session.sql(f"INSERT INTO {name} VALUES {ROWS}")
    return name


def contents(session, table: str) -> list[tuple]:
    return sorted(
        tuple(r) for r in session.sql(f"SELECT id, msg, _seq, _src FROM {table}").collect()
    )


ORIGINAL = [(1, "a", 10, "s1"), (2, "b", 20, "s2")]

# (name, write, outcome): the write gets the session and the table; outcome "kept" means every
# row written carries its hidden values (the original rows, each twice); otherwise the error class
# (or message fragment) the write fails with, the table unchanged. A pair: plain, partitioned.
CASES: list[tuple[str, Callable, str | tuple[str, str]]] = [
    ("insert into", lambda s, t: s.sql(f"INSERT INTO {t} SELECT * FROM {t}"), "kept"),
    (
        "insert into by name",
        lambda s, t: s.sql(f"INSERT INTO {t} BY NAME SELECT * FROM {t}"),
        "kept",
    ),
    (
        "insert with all columns listed",
        lambda s, t: s.sql(f"INSERT INTO {t} (id, msg, _seq, _src) SELECT * FROM {t}"),
        "kept",
    ),
    (
        "insert with a CTE",
        lambda s, t: s.sql(
            f"WITH c AS (SELECT * FROM {t}) INSERT INTO {t} BY NAME SELECT * FROM c"
        ),
        "kept",
    ),
    (
        "insert with some columns listed",
        lambda s, t: s.sql(f"INSERT INTO {t} (id, msg) SELECT * FROM {t}"),
        "INSERT_COLUMN_ARITY_MISMATCH.TOO_MANY_DATA_COLUMNS",
    ),
    (
        "insert overwrite of itself",
        lambda s, t: s.sql(f"INSERT OVERWRITE {t} SELECT * FROM {t}"),
        "UNSUPPORTED_OVERWRITE.TABLE",
    ),
    (
        "insert by name from a view made while hiding",
        lambda s, t: (
            s.sql(f"CREATE OR REPLACE TEMPORARY VIEW {t}_v AS SELECT * FROM {t}"),
            s.sql(f"INSERT INTO {t} BY NAME SELECT * FROM {t}_v"),
        ),
        "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN",
    ),
    (
        "dataframe insertInto of a star",
        lambda s, t: s.table(t).select("*").write.insertInto(t),
        dataframe_star("INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS"),
    ),
    ("dataframe insertInto of the table", lambda s, t: s.table(t).write.insertInto(t), "kept"),
    (
        "dataframe saveAsTable append of a star",
        lambda s, t: s.table(t).select("*").write.mode("append").saveAsTable(t),
        # on 3.5 the column numbers match, and saveAsTable's partitioning check refuses it
        dataframe_star(
            "column number of the existing table",
            "Specified partitioning does not match that of the existing table",
        ),
    ),
    (
        "dataframe saveAsTable overwrite of a star",
        lambda s, t: s.table(t).select("*").write.mode("overwrite").saveAsTable(t),
        "UNSUPPORTED_OVERWRITE.TABLE",
    ),
]


@pytest.fixture(scope="module")
def hiding(spark):
    session = spark.newSession()
    session.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
    session.conf.set("spark.colsem.star.excludePattern", "_.*")
    return session


@pytest.mark.parametrize("partitioned", [False, True], ids=["plain", "partitioned"])
@pytest.mark.parametrize("name, write, outcome", CASES, ids=[c[0] for c in CASES])
def test_write_path_keeps_hidden_values_or_fails(hiding, name, write, outcome, partitioned):
    if isinstance(outcome, tuple):
        outcome = outcome[partitioned]
    table = make_table(hiding, partitioned)
    assert hiding.sql(f"SELECT * FROM {table}").columns == [
        "id",
        "msg",
    ]  # hidden by both strategies
    assert contents(hiding, table) == ORIGINAL
    if outcome == "kept":
        write(hiding, table)
        assert contents(hiding, table) == sorted(ORIGINAL * 2)
    else:
        with pytest.raises(AnalysisException) as err:
            write(hiding, table)
        assert outcome == condition(err.value) or outcome in str(err.value)
        assert contents(hiding, table) == ORIGINAL


def test_ctas_copies_what_star_shows(hiding):
    table = make_table(hiding)
    hiding.sql(f"CREATE TABLE {table}_copy USING parquet AS SELECT * FROM {table}")
    assert hiding.table(f"{table}_copy").columns == ["id", "msg"]
    hiding.sql(f"CREATE TABLE {table}_full USING parquet AS SELECT *, _seq, _src FROM {table}")
    assert contents(hiding, f"{table}_full") == ORIGINAL
    assert contents(hiding, table) == ORIGINAL
