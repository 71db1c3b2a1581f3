"""`*` over every operator a user can put over a table or a stream of it (tests/star_matrix.py):
as a DataFrame, as a temp view of it and through SQL, `*` and `t.*` show what the same shape shows
over the batch table: a hidden column stays hidden through every operator that passes it on, and
shows where a SELECT list chose it. One session; the expected columns come from vanilla Spark's
(colsem's star settings off) and the operator's kind (docs/star.md, "Where it applies")."""

from __future__ import annotations

import importlib
import importlib.util

import pytest
import star_matrix
from golden import running_line

pytestmark = pytest.mark.pipelines


@pytest.fixture(scope="module")
def results(spark):  # type: ignore[no-untyped-def]
    events, dims = star_matrix.create_tables(spark)
    vanilla = spark.newSession()
    hiding = spark.newSession()
    hiding.conf.set("spark.colsem.star.exclude", "TAGGED")
    return star_matrix.matrix(vanilla, events, dims), star_matrix.matrix(hiding, events, dims)


def test_star_over_every_operator_hides_as_over_the_table(results):
    vanilla, hiding = results
    assert len(vanilla) == len(hiding) > 100
    expected = star_matrix.expected(vanilla, running_line() == "3.5")
    assert {case: hiding[case] for case in expected if hiding[case] != expected[case]} == {}


def test_streams_show_what_the_batch_table_shows(results):
    """The same shape over a stream and over the batch table: the same columns, or both refused
    (a stream-only refusal, such as a batch-only operator, is vanilla's and listed as such)."""
    _, hiding = results
    batch = {
        case.split("/", 1)[1]: cols for case, cols in hiding.items() if case.startswith("batch/")
    }
    stream = {
        case.split("/", 1)[1]: cols for case, cols in hiding.items() if case.startswith("stream/")
    }
    differ = {
        case: (batch[case], stream[case])
        for case in batch
        if case in stream and batch[case] != stream[case] and not isinstance(stream[case], str)
    }
    assert differ == {}


def test_every_public_dataframe_method_is_classified():
    """Each public method of PySpark's DataFrame, classic and Connect, is in star_matrix.METHODS:
    a new PySpark release's new method fails here until someone decides what `*` over it shows."""
    classes = [
        importlib.import_module(module).DataFrame
        for module in (
            "pyspark.sql.dataframe",
            "pyspark.sql.classic.dataframe",
            "pyspark.sql.connect.dataframe",
        )
        # Spark 3.5 has no pyspark.sql.classic (find_spec of a module under it raises).
        if importlib.util.find_spec(module.rsplit(".", 1)[0]) is not None
        and importlib.util.find_spec(module) is not None
    ]
    public = {n for cls in classes for n in dir(cls) if not n.startswith("_")}
    assert sorted(public - set(star_matrix.METHODS)) == []
