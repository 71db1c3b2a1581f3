"""SELECT * strategies through the DataFrame API, on real parquet tables and files: what the SQL
golden files (star_*.sql) cannot reach — DataFrame stars, field metadata, DataFrame writes."""

from __future__ import annotations

from pathlib import Path

import pyspark
import pytest
from golden import condition
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, LongType, StringType, StructField, StructType

# Spark 3.5 has no Hints-batch injection: colsem marks the stars of parsed SQL only, and a
# DataFrame's select("*") expands as in vanilla Spark there (docs/versions.md).
dataframe_stars = pytest.mark.skipif(
    pyspark.__version__.startswith("3."), reason="Spark 3.5: DataFrame stars stay vanilla"
)

HIDDEN = {"colsem.hidden": True}


@pytest.fixture(scope="module")
def hiding(spark: SparkSession):
    session = spark.newSession()
    session.sql("DROP TABLE IF EXISTS star_df_t")
    session.sql(
        "CREATE TABLE star_df_t (id INT, v STRING, _row_id BIGINT) USING parquet "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')"
    )
    session.sql("INSERT INTO star_df_t VALUES (1, 'a', 10), (2, 'b', 20)")
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    return session


def tagged_frame(session: SparkSession):
    schema = StructType(
        [
            StructField("id", IntegerType()),
            StructField("v", StringType()),
            StructField("_seq", LongType(), metadata=HIDDEN),
        ]
    )
    return session.createDataFrame([(1, "a", 7), (2, "b", 8)], schema)


@dataframe_stars
def test_dataframe_star_hides_table_columns(hiding):
    df = hiding.table("star_df_t")
    assert df.columns == ["id", "v", "_row_id"]  # the table itself: every column
    assert df.select("*").columns == ["id", "v"]
    assert df.select(F.col("*")).columns == ["id", "v"]
    assert df.selectExpr("_row_id", "*").columns == ["_row_id", "id", "v"]
    assert sorted(tuple(r) for r in df.select("*").collect()) == [(1, "a"), (2, "b")]


@pytest.mark.skipif(
    not pyspark.__version__.startswith("3."), reason="Spark 3.5's own DataFrame behaviour"
)
def test_spark35_dataframe_calls_keep_vanilla_behaviour(hiding):
    """docs/versions.md, "Spark 3.5's DataFrame API": each call listed there, as it behaves on 3.5
    with colsem loaded and the settings on. SQL text gets every feature; DataFrame calls keep
    Spark's own stars, lateral aliases and names."""
    session = hiding.newSession()
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    session.conf.set("spark.colsem.naming.dialect", "postgres")
    df = session.table("star_df_t")
    assert session.sql("SELECT * FROM star_df_t").columns == ["id", "v"]
    for star in (df.select("*"), df.select(F.col("*")), df.selectExpr("*"), df.select(F.expr("*"))):
        assert star.columns == ["id", "v", "_row_id"]
    assert session.sql("SELECT id + 1 FROM star_df_t").columns == ["?column?"]
    assert df.selectExpr("id + 1").columns == ["(id + 1)"]
    assert df.selectExpr("id + 1 AS x", "x * 2 AS y").orderBy("x").collect() == [(2, 4), (3, 6)]
    with pytest.raises(AnalysisException) as window:
        df.selectExpr("id + 1 AS x", "rank() OVER (ORDER BY x) AS r").collect()
    assert condition(window.value) == "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_WINDOW"
    assert session.sql(
        "SELECT id + 1 AS x, rank() OVER (ORDER BY x) AS r FROM star_df_t ORDER BY x"
    ).collect() == [(2, 1), (3, 2)]


def test_dataframe_transformations_keep_every_column(hiding):
    df = hiding.table("star_df_t")
    assert df.withColumn("w", F.col("id") + 1).columns == ["id", "v", "_row_id", "w"]
    assert df.withColumnRenamed("v", "value").columns == ["id", "value", "_row_id"]
    assert df.drop("v").columns == ["id", "_row_id"]
    assert df.filter("id > 1").columns == ["id", "v", "_row_id"]


@dataframe_stars
def test_field_metadata_hides_dataframe_and_temp_view_columns(hiding):
    df = tagged_frame(hiding)
    assert df.select("*").columns == ["id", "v"]
    df.createOrReplaceTempView("star_df_tagged")
    assert hiding.sql("SELECT * FROM star_df_tagged").columns == ["id", "v"]
    assert hiding.sql("SELECT _seq, * FROM star_df_tagged").columns == ["_seq", "id", "v"]
    # A subquery's explicit choice stays, even though the column still carries the metadata.
    kept = hiding.sql("SELECT * FROM (SELECT _seq, * FROM star_df_tagged) ORDER BY id")
    assert kept.columns == ["_seq", "id", "v"]
    assert [tuple(r) for r in kept.collect()] == [(7, 1, "a"), (8, 2, "b")]
    # withMetadata tags a computed DataFrame column the same way.
    marked = hiding.range(2).withColumn("secret", F.col("id") * 2).withMetadata("secret", HIDDEN)
    assert marked.select("*").columns == ["id"]


@dataframe_stars
def test_metadata_needs_tagged_strategy(hiding):
    session = hiding.newSession()
    session.conf.set("spark.colsem.star.exclude", "PATTERN")
    session.conf.set("spark.colsem.star.excludePattern", "v")
    assert tagged_frame(session).select("*").columns == ["id", "_seq"]


@dataframe_stars
def test_pattern_on_parquet_files_and_spark_metadata_columns(hiding, tmp_path: Path):
    path = str(tmp_path / "cdc")
    hiding.createDataFrame(
        [(1, "x", "insert")], "id INT, note STRING, _change_type STRING"
    ).write.parquet(path)
    session = hiding.newSession()
    session.conf.set("spark.colsem.star.exclude", "PATTERN")
    session.conf.set("spark.colsem.star.excludePattern", "_.*")
    files = session.read.parquet(path)
    assert files.select("*").columns == ["id", "note"]
    # Spark's own _metadata column keeps its vanilla behaviour: not in *, selectable by name.
    row = files.select("*", "_metadata.file_name").first()
    assert row.asDict()["id"] == 1 and row.file_name.endswith(".parquet")
    files.createOrReplaceTempView("star_cdc_files")
    assert session.sql("SELECT * FROM star_cdc_files").columns == ["id", "note"]


@dataframe_stars
def test_dataframe_writes_of_a_star_fail_loudly(hiding):
    """A DataFrame made with * lacks the hidden columns; every DataFrame write back into the
    table fails with Spark's own error instead of losing them, and the table is unchanged."""
    before = sorted(tuple(r) for r in hiding.sql("SELECT id, v, _row_id FROM star_df_t").collect())
    visible = hiding.table("star_df_t").select("*")
    with pytest.raises(AnalysisException) as insert_into:
        visible.write.insertInto("star_df_t")
    assert condition(insert_into.value) == "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS"
    with pytest.raises(AnalysisException, match="column number of the existing table"):
        visible.write.mode("append").saveAsTable("star_df_t")
    visible.createOrReplaceTempView("star_df_visible")
    with pytest.raises(AnalysisException) as by_name:
        hiding.sql("INSERT INTO star_df_t BY NAME SELECT * FROM star_df_visible")
    assert condition(by_name.value) == "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"
    assert by_name.value.getMessageParameters()["missingColumns"] == "`_row_id`"
    after = sorted(tuple(r) for r in hiding.sql("SELECT id, v, _row_id FROM star_df_t").collect())
    assert after == before == [(1, "a", 10), (2, "b", 20)]


def test_error_points_at_the_star(hiding):
    session = hiding.newSession()
    session.sql("DROP TABLE IF EXISTS star_df_bad")
    session.sql(
        "CREATE TABLE star_df_bad (id INT) USING parquet "
        "TBLPROPERTIES ('colsem.hidden_columns' = 'nope')"
    )
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT id, * FROM star_df_bad")
    assert condition(err.value) == "COLSEM_UNKNOWN_HIDDEN_COLUMNS"
    assert err.value.getSqlState() == "42703"
    assert "ALTER TABLE spark_catalog.default.star_df_bad SET TBLPROPERTIES" in str(err.value)
    if not hasattr(err.value, "getQueryContext"):
        pytest.skip("PySpark 3.5 exposes no query context on its exceptions")
    context = err.value.getQueryContext()[0]
    assert (context.fragment(), context.startIndex()) == ("*", 11)


def test_default_star_is_vanilla(spark):
    """With nothing configured, * keeps every column; colsem_columns still reports markers."""
    session = spark.newSession()
    session.sql("DROP TABLE IF EXISTS star_df_default")
    session.sql(
        "CREATE TABLE star_df_default (id INT, _row_id BIGINT) USING parquet "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')"
    )
    assert session.sql("SELECT * FROM star_df_default").columns == ["id", "_row_id"]
    rows = [
        tuple(r) for r in session.sql("SELECT * FROM colsem_columns('star_df_default')").collect()
    ]
    assert rows == [
        (1, "id", "INT", False, None),
        (2, "_row_id", "BIGINT", False, "table property colsem.hidden_columns (TAGGED, off)"),
    ]
