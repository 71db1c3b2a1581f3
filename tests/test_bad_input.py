"""Bad input: every spark.colsem.* key with a value it cannot take gives one clear error naming
the key and the value, on the next query; SET and RESET keep working; the session recovers."""

from __future__ import annotations

import pytest
from golden import condition
from pyspark.errors import AnalysisException

# A value no colsem key accepts: not a boolean, a number, a strategy list, a dialect or a regex.
INVALID = "((no such value"


def colsem_keys(spark) -> list:
    return [
        r["key"]
        for r in spark.sql("SELECT key FROM colsem_status()").collect()
        if r["key"].startswith("spark.colsem.")
    ]


def test_every_key_is_covered(spark):
    keys = colsem_keys(spark)
    assert "spark.colsem.enabled" in keys and "spark.colsem.star.exclude" in keys
    assert len(keys) == len(set(keys))


@pytest.fixture(scope="module")
def keys(spark):
    return colsem_keys(spark)


def test_each_key_rejects_an_invalid_value_clearly(spark, keys):
    for key in keys:
        session = spark.newSession()
        session.sql(f"SET {key}={INVALID}")  # the SET itself works
        for query in ("SELECT 1 AS a, a + 1 AS b", "SELECT * FROM t1"):
            with pytest.raises(AnalysisException) as err:
                session.sql(query).collect()
            exc = err.value
            assert condition(exc) == "COLSEM_INVALID_CONF_VALUE", key
            assert exc.getSqlState() == "22022"
            assert exc.getMessageParameters()["confName"] == key
            assert exc.getMessageParameters()["confValue"] == INVALID
            assert (
                f"The value '{INVALID}' of the config '{key}' is invalid. Allowed values: "
                in str(exc)
            )
        session.sql(f"RESET {key}")
        assert session.sql("SELECT 1 AS a, a + 1 AS b").collect()[0].asDict() == {"a": 1, "b": 2}


def test_dataframe_collect_after_a_bad_set_is_not_broken(spark):
    """Spark analyzes the encoder of a collected Dataset on its own; that must not fail."""
    session = spark.newSession()
    rows = session.sql("SET spark.colsem.enabled=maybe").collect()
    assert [tuple(r) for r in rows] == [("spark.colsem.enabled", "maybe")]
    session.sql("RESET spark.colsem.enabled")


def test_misspelt_key_names_the_closest(spark):
    session = spark.newSession()
    session.conf.set("spark.colsem.star.exlude", "TAGGED")
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT 1").collect()
    assert condition(err.value) == "COLSEM_UNKNOWN_CONF"
    assert (
        err.value.getMessageParameters()["suggestion"]
        == " Did you mean 'spark.colsem.star.exclude'?"
    )


@pytest.mark.parametrize(
    "value, error",
    [
        ("_hoodie_[", "COLSEM_INVALID_CONF_VALUE"),
        ("", None),
    ],
)
def test_pattern_values(spark, value, error):
    session = spark.newSession()
    session.conf.set("spark.colsem.star.exclude", "PATTERN")
    session.conf.set("spark.colsem.star.excludePattern", value)
    if error is None:  # an empty pattern with PATTERN on: the star says what is missing
        error = "COLSEM_STAR_PATTERN_REQUIRED"
        assert session.sql("SELECT 1 AS x").collect()[0].x == 1  # no star: unaffected
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT * FROM t1").collect()
    assert condition(err.value) == error
