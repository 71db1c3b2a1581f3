"""Output naming dialects (spark.colsem.naming.dialect) beyond the golden files: the DataFrame API
(no SQL text), the default leaving Spark's names and plans alone, errors, view checks, metadata.
The SQL behaviour is in tests/sql/inputs/naming_*.sql; the comparison with real PostgreSQL,
MariaDB and SQLite in test_naming_engines.py."""

from __future__ import annotations

import pytest
from golden import condition, running_line
from pyspark.errors import AnalysisException
from pyspark.sql import functions as F

KEY = "spark.colsem.naming.dialect"
# Spark 3.5 has no Hints-batch injection: dialects name SQL text only, and DataFrame API items keep
# Spark's own names there (docs/versions.md).
SQL_TEXT_ONLY = running_line() == "3.5"


def vanilla_names(spark, columns_of) -> list:
    """The names Spark itself gives: colsem switched off in a session of its own."""
    vanilla = spark.newSession()
    vanilla.conf.set("spark.colsem.enabled", "false")
    return columns_of(vanilla)


@pytest.fixture()
def session(spark):
    return spark.newSession()


def api_columns(session):
    df = session.table("t1")
    return df.select(
        F.col("s1") + 1,
        F.upper("s2"),
        F.col("s1") != 1,
        -F.col("s1"),
        F.col("s1").isNull(),
        F.col("s1").isin(1, 2),
        (F.col("s1") > 1) & (F.col("s3") < 3.0),
        F.when(F.col("s1") == 1, "one").otherwise("x"),
        F.col("s1").cast("bigint"),
        F.lit("x"),
        F.expr("s1+1"),
    ).columns


API_NAMES = {
    "spark": [
        "(s1 + 1)",
        "upper(s2)",
        "(NOT (s1 = 1))",
        "negative(s1)",
        "(s1 IS NULL)",
        "(s1 IN (1, 2))",
        "((s1 > 1) AND (s3 < 3.0))",
        "CASE WHEN (s1 = 1) THEN one ELSE x END",
        "s1",
        "x",
        "(s1 + 1)",
    ],
    "canonical": [
        "(s1 + 1)",
        "upper(s2)",
        "(s1 <> 1)",
        "(- s1)",
        "(s1 IS NULL)",
        "(s1 IN (1, 2))",
        "((s1 > 1) AND (s3 < 3.0))",
        "CASE WHEN (s1 = 1) THEN one ELSE x END",
        "CAST(s1 AS BIGINT)",
        "x",
        "(s1 + 1)",
    ],
    # No SQL text: canonical names, except F.expr, which has text.
    "mysql": [
        "(s1 + 1)",
        "upper(s2)",
        "(s1 <> 1)",
        "(- s1)",
        "(s1 IS NULL)",
        "(s1 IN (1, 2))",
        "((s1 > 1) AND (s3 < 3.0))",
        "CASE WHEN (s1 = 1) THEN one ELSE x END",
        "CAST(s1 AS BIGINT)",
        "x",
        "s1+1",
    ],
    "sqlite": [
        "(s1 + 1)",
        "upper(s2)",
        "(s1 <> 1)",
        "(- s1)",
        "(s1 IS NULL)",
        "(s1 IN (1, 2))",
        "((s1 > 1) AND (s3 < 3.0))",
        "CASE WHEN (s1 = 1) THEN one ELSE x END",
        "CAST(s1 AS BIGINT)",
        "x",
        "s1+1",
    ],
    "postgres": [
        "?column?",
        "upper",
        "?column?",
        "?column?",
        "?column?",
        "?column?",
        "?column?",
        "case",
        "s1",
        "?column?",
        "?column?",
    ],
}


@pytest.mark.parametrize("dialect", sorted(API_NAMES))
def test_dataframe_api_names(spark, session, dialect):
    session.conf.set(KEY, dialect)
    expected = vanilla_names(spark, api_columns) if SQL_TEXT_ONLY else API_NAMES[dialect]
    assert api_columns(session) == expected


@pytest.mark.parametrize("dialect", ["canonical", "mysql", "sqlite", "postgres"])
def test_dataframe_aggregates_and_windows(spark, session, dialect):
    session.conf.set(KEY, dialect)
    df = session.table("t1")
    expected = {"postgres": ["s2", "count", "sum"]}.get(dialect, ["s2", "count(*)", "sum(s1)"])
    if SQL_TEXT_ONLY:
        expected = vanilla_names(
            spark, lambda s: s.table("t1").groupBy("s2").agg(F.count("*"), F.sum("s1")).columns
        )
    grouped = df.groupBy("s2").agg(F.count("*"), F.sum("s1"))
    assert grouped.columns == expected
    assert sorted(grouped.collect(), key=lambda r: str(r[0])) == sorted(
        df.groupBy("s2").agg(F.count("*").alias("c"), F.sum("s1").alias("s")).collect(),
        key=lambda r: str(r[0]),
    )


QUERIES = [
    "SELECT s1 <> 1, count(*), -2, CAST(s1 AS BIGINT), (SELECT max(id) FROM t2), s2 || 'x' FROM t1 GROUP BY s1, s2",
    "SELECT s1 + 1, `(s1 + 1)` FROM t1",
    "SELECT * FROM (SELECT s1 * 2, upper(s2) FROM t1) WHERE `(s1 * 2)` > 2",
    "SELECT transform(tags, x -> x || '!'), explode(tags) FROM t2",
    "SELECT s1, rank() OVER (ORDER BY s1) FROM t1",
]


@pytest.mark.parametrize("sql", QUERIES)
def test_default_and_spark_dialect_keep_vanilla_names_and_plans(spark, sql):
    vanilla = spark.newSession()
    vanilla.conf.set("spark.colsem.enabled", "false")
    expected = vanilla.sql(sql)
    for value in (None, "spark", "SPARK"):
        session = spark.newSession()
        if value:
            session.conf.set(KEY, value)
        df = session.sql(sql)
        assert df.columns == expected.columns
        assert df.schema == expected.schema
        assert sorted(map(str, df.collect())) == sorted(map(str, expected.collect()))


def test_disabled_colsem_ignores_the_dialect(session):
    session.conf.set(KEY, "postgres")
    session.conf.set("spark.colsem.enabled", "false")
    assert session.sql("SELECT s1 + 1, count(*) FROM t1 GROUP BY s1").columns == [
        "(s1 + 1)",
        "count(1)",
    ]


def test_bad_value_fails_with_the_valid_values(session):
    session.conf.set(KEY, "oracle")
    with pytest.raises(AnalysisException) as info:
        session.sql("SELECT s1 + 1 FROM t1").collect()
    assert condition(info.value) == "COLSEM_INVALID_CONF_VALUE"
    assert info.value.getSqlState() == "22022"
    assert dict(info.value.getMessageParameters()) == {
        "confName": KEY,
        "confValue": "oracle",
        "default": "spark",
        "allowedValues": "spark, canonical, postgres, mysql, sqlite",
    }
    session.conf.set(KEY, "canonical")
    assert session.sql("SELECT s1 + 1 FROM t1").columns == ["(s1 + 1)"]


@pytest.mark.parametrize("dialect", ["canonical", "postgres", "mysql", "sqlite"])
def test_permanent_view_without_alias_is_refused_as_in_spark(session, dialect):
    """colsem marks its names as generated, like Spark's, so Spark's check still applies."""
    session.conf.set(KEY, dialect)
    with pytest.raises(AnalysisException) as info:
        session.sql("CREATE VIEW naming_pv AS SELECT s1 + 1 FROM t1")
    assert condition(info.value) == "CREATE_PERMANENT_VIEW_WITHOUT_ALIAS"
    session.sql("CREATE VIEW naming_pv AS SELECT s1 + 1 AS n, 'x' FROM t1")
    try:
        assert session.table("naming_pv").columns == [
            "n",
            {"postgres": "?column?", "sqlite": "'x'"}.get(dialect, "x"),
        ]
    finally:
        session.sql("DROP VIEW naming_pv")


def test_generated_name_metadata_as_in_spark(spark):
    vanilla = spark.newSession()
    vanilla.conf.set("spark.colsem.enabled", "false")
    named = spark.newSession()
    named.conf.set(KEY, "canonical")
    sql = "SELECT s1 + 1, 'lit', s1 FROM t1"
    assert [f.metadata for f in named.sql(sql).schema.fields] == [
        f.metadata for f in vanilla.sql(sql).schema.fields
    ]


def test_ctas_and_insert_by_name_use_the_dialect_names(session):
    session.conf.set(KEY, "postgres")
    session.sql("CREATE TABLE naming_pg USING parquet AS SELECT upper(s2), s1 + 1, s1 FROM t1")
    try:
        assert session.table("naming_pg").columns == ["upper", "?column?", "s1"]
        assert session.sql("SELECT count(*) FROM naming_pg").collect()[0][0] == 4
    finally:
        session.sql("DROP TABLE naming_pg")


def test_a_view_reads_back_under_the_dialect_it_was_created_with(spark):
    """A view records the dialect (the key is registered as a SQL conf, which views capture), so
    its body's inner names still resolve and its stored column names still match in a session
    with another dialect or none."""
    creator = spark.newSession()
    creator.conf.set(KEY, "postgres")
    creator.sql(
        "CREATE VIEW naming_pg_view AS SELECT `?column?` + 1 AS n, 'x' "
        "FROM (SELECT s1 * 2, upper(s2) FROM t1)"
    )
    try:
        for dialect in (None, "canonical", "mysql"):
            reader = spark.newSession()
            if dialect:
                reader.conf.set(KEY, dialect)
            df = reader.sql("SELECT * FROM naming_pg_view WHERE n > 4")
            assert df.columns == ["n", "?column?"]
            assert sorted(map(tuple, df.collect())) == [(5, "x"), (7, "x"), (7, "x")]
    finally:
        creator.sql("DROP VIEW naming_pg_view")


def test_postgres_folds_unquoted_sql_names_only(session):
    """PostgreSQL folds an unquoted identifier to lower case; a backquoted name and a DataFrame
    API column name (exact, like a quoted identifier) keep their case."""
    session.conf.set(KEY, "postgres")
    assert session.sql("SELECT S1, `S2`, t1.S3 FROM t1").columns == ["s1", "S2", "s3"]
    # F.expr's text is named as SQL text, except on 3.5 (DataFrame items keep Spark's names there)
    assert session.table("t1").select(F.col("S1"), F.expr("S2")).columns == [
        "S1",
        "S2" if SQL_TEXT_ONLY else "s2",
    ]


@pytest.mark.skipif(
    running_line() == "3.5", reason="Spark 3.5 has no SQL functions (CREATE FUNCTION ... RETURN)"
)
@pytest.mark.parametrize("dialect", ["canonical", "postgres"])
def test_sql_function_read_through_a_cte_keeps_vanilla_nullability(spark, dialect):
    """A CTE reads an unaliased SQL-function call before Spark inlines it, so vanilla Spark makes
    the CTE's column nullable (an aliased call is not): the dialect keeps that, only the name
    changes (found by the corpus run, sql-udf.sql)."""
    sql = "WITH cte AS (SELECT naming_fn(c1, c2) FROM naming_t) SELECT * FROM cte"
    aliased = "WITH cte AS (SELECT naming_fn(c1, c2) AS x FROM naming_t) SELECT * FROM cte"

    def fields(session, query):
        session.sql("CREATE OR REPLACE TEMPORARY VIEW naming_t(c1, c2) AS VALUES (0, 1), (1, 2)")
        session.sql(
            "CREATE OR REPLACE TEMPORARY FUNCTION naming_fn(a DOUBLE, b DOUBLE) RETURNS DOUBLE RETURN a * b"
        )
        return [
            (f.name, f.dataType.simpleString(), f.nullable)
            for f in session.sql(query).schema.fields
        ]

    vanilla = spark.newSession()
    vanilla.conf.set("spark.colsem.enabled", "false")
    named = spark.newSession()
    named.conf.set(KEY, dialect)
    name = {"canonical": "naming_fn(c1, c2)", "postgres": "naming_fn"}[dialect]
    assert fields(vanilla, sql) == [("naming_fn(c1, c2)", "double", True)]
    assert fields(named, sql) == [(name, "double", True)]
    assert fields(named, aliased) == fields(vanilla, aliased) == [("x", "double", False)]
