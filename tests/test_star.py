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
    # df["*"]: the DataFrame's own star (resolved against it, with its plan id).
    assert df.select(df["*"]).columns == ["id", "v"]
    assert df.withColumn("w", F.lit(1)).select(df["*"]).columns == ["id", "v"]
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


# Issue 55: DataFrame calls that carry their input's columns over keep hidden columns hidden;
# the table `events (id, name, _row_id, score)` with `_row_id` hidden, as the issue tried it.
@pytest.fixture(scope="module")
def events(hiding):
    hiding.sql("DROP TABLE IF EXISTS star_events")
    hiding.sql(
        "CREATE TABLE star_events (id INT, name STRING, _row_id BIGINT, score DOUBLE) "
        "USING parquet TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')"
    )
    hiding.sql("INSERT INTO star_events VALUES (1, 'a', 10, 1.5), (2, NULL, 20, NULL)")
    return hiding


def rows(df) -> list[tuple]:  # type: ignore[no-untyped-def]
    return sorted((tuple(r) for r in df.collect()), key=lambda r: tuple(str(v) for v in r))


@dataframe_stars
def test_dataframe_calls_keep_hidden_columns_hidden(events):
    """The issue's table, row by row: every call that passes the other columns on keeps
    `_row_id` out of a later `*`, with the same values as the table's `*`."""
    t = events.table("star_events")
    filtered = t.filter("id > 0").select("*")
    assert filtered.columns == ["id", "name", "score"]
    upper = t.withColumn("upper", F.upper("name")).select("*")
    assert upper.columns == ["id", "name", "score", "upper"]
    assert rows(upper) == [(1, "a", 1.5, "A"), (2, None, None, None)]
    cols = t.withColumns({"s2": F.col("score") * 2, "one": F.lit(1)}).selectExpr("*")
    assert cols.columns == ["id", "name", "score", "s2", "one"]
    assert rows(cols) == [(1, "a", 1.5, 3.0, 1), (2, None, None, None, 1)]
    renamed = t.withColumnRenamed("name", "nm").select("*")
    assert renamed.columns == ["id", "nm", "score"]
    dropped = t.drop("score").select("*")
    assert dropped.columns == ["id", "name"]
    assert rows(dropped) == [(1, "a"), (2, None)]
    assert t.drop(F.col("score")).select("*").columns == ["id", "name"]
    filled = t.na.fill(0.0).select("*")
    assert filled.columns == ["id", "name", "score"]
    assert rows(filled) == [(1, "a", 1.5), (2, None, 0.0)]
    assert t.fillna("?").select("*").columns == ["id", "name", "score"]
    assert rows(t.na.replace("a", "b").select("*")) == [(1, "b", 1.5), (2, None, None)]
    assert t.dropna().select("*").columns == ["id", "name", "score"]
    t.withColumn("upper", F.upper("name")).createOrReplaceTempView("star_events_upper")
    viewed = events.sql("SELECT * FROM star_events_upper")
    assert viewed.columns == ["id", "name", "score", "upper"]
    stream = events.readStream.table("star_events").withColumn("upper", F.upper("name"))
    assert stream.select("*").columns == ["id", "name", "score", "upper"]
    union = t.unionByName(t.drop("score"), allowMissingColumns=True).select("*")
    assert union.columns == ["id", "name", "score"]
    assert rows(union) == [(1, "a", 1.5), (1, "a", None), (2, None, None), (2, None, None)]
    # A choice by name shows; a DataFrame is no star and keeps every column.
    assert t.select("_row_id", "id").select("*").columns == ["_row_id", "id"]
    assert t.withColumn("upper", F.upper("name")).columns == [
        "id",
        "name",
        "_row_id",
        "score",
        "upper",
    ]


@dataframe_stars
def test_columns_a_call_names_show(events):
    """A column the user's code names, by a string or a column, shows after the call."""
    t = events.table("star_events")
    replaced = t.withColumn("_row_id", F.col("_row_id") + 1).select("*")
    assert replaced.columns == ["id", "name", "_row_id", "score"]
    assert rows(replaced.select("_row_id")) == [(11,), (21,)]
    assert t.withMetadata("_row_id", {"note": "x"}).select("*").columns == [
        "id",
        "name",
        "_row_id",
        "score",
    ]
    filled = t.na.fill(0, ["_row_id", "score"]).select("*")
    assert filled.columns == ["id", "name", "_row_id", "score"]
    assert rows(filled) == [(1, "a", 10, 1.5), (2, None, 20, 0.0)]
    assert t.withColumnRenamed("_row_id", "rid").select("*").columns == [
        "id",
        "name",
        "rid",
        "score",
    ]
    assert t.toDF("a", "b", "c", "d").select("*").columns == ["a", "b", "c", "d"]
    schema = StructType([StructField("_row_id", LongType()), StructField("id", IntegerType())])
    assert t.to(schema).select("*").columns == ["_row_id", "id"]
    # The hidden column stays hidden through the rest of a call that names another one.
    assert t.na.fill(0.0, ["score"]).select("*").columns == ["id", "name", "score"]


@dataframe_stars
def test_writes_after_dataframe_calls(events):
    """A DataFrame without a star keeps every column: saveAsTable writes `_row_id`. A star after
    the calls leaves it out: a new table copies what the star shows, and the table's own write
    back is refused, as for a star over the table."""
    session = events
    for name in ("star_events_copy", "star_events_starred"):
        session.sql(f"DROP TABLE IF EXISTS {name}")
    t = session.table("star_events")
    t.withColumn("upper", F.upper("name")).write.saveAsTable("star_events_copy")
    copied = session.sql("SELECT id, _row_id, upper FROM star_events_copy")
    assert rows(copied) == [(1, 10, "A"), (2, 20, None)]
    starred = t.withColumn("upper", F.upper("name")).drop("score").select("*")
    starred.write.saveAsTable("star_events_starred")
    assert session.table("star_events_starred").columns == ["id", "name", "upper"]
    with pytest.raises(AnalysisException) as back:
        t.withColumn("score", F.col("score") + 1).select("*").write.insertInto("star_events")
    assert condition(back.value) == "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS"
    assert rows(session.sql("SELECT _row_id FROM star_events")) == [(10,), (20,)]


@dataframe_stars
def test_table_and_pipe_from_hide_as_select_star(events):
    session = events
    shown = ["id", "name", "score"]
    assert session.sql("TABLE star_events").columns == shown
    assert rows(session.sql("TABLE star_events")) == [(1, "a", 1.5), (2, None, None)]
    for pipe in (
        "FROM star_events",
        "FROM star_events |> WHERE id > 0",
        "FROM star_events |> AS e |> WHERE e.id > 0",
        "FROM star_events |> ORDER BY id |> LIMIT 5",
        "FROM star_events |> TABLESAMPLE (100 PERCENT)",
        "FROM star_events |> SELECT *",
        "FROM star_events |> DROP name",
    ):
        assert session.sql(pipe).columns == [c for c in shown if "DROP" not in pipe or c != "name"]
    assert session.sql("FROM star_events |> EXTEND id + 1 AS j").columns == shown + ["j"]
    assert session.sql("FROM star_events |> SET score = 0.0").columns == shown
    # Choices show what they name.
    assert session.sql("FROM star_events |> SELECT _row_id, id").columns == ["_row_id", "id"]
    agg = session.sql("FROM star_events |> AGGREGATE max(_row_id) AS m")
    assert rows(agg) == [(20,)]
    assert session.sql("WITH x AS (TABLE star_events) SELECT * FROM x").columns == shown
    # INSERT ... TABLE t keeps every column, as every star of an INSERT does.
    session.sql("DROP TABLE IF EXISTS star_events_ins")
    session.sql("CREATE TABLE star_events_ins LIKE star_events")
    session.sql("INSERT INTO star_events_ins TABLE star_events")
    assert rows(session.sql("SELECT _row_id FROM star_events_ins")) == [(10,), (20,)]
    session.sql("DROP TABLE IF EXISTS star_events_ctas")
    session.sql("CREATE TABLE star_events_ctas USING parquet AS TABLE star_events")
    assert session.table("star_events_ctas").columns == shown


@dataframe_stars
def test_table_statement_analyzes_as_vanilla_where_nothing_hides(spark):
    """With nothing to hide (or star.exclude empty) `TABLE t` is vanilla's plan, unchanged."""
    session = spark.newSession()
    session.sql("DROP TABLE IF EXISTS star_plain")
    session.sql("CREATE TABLE star_plain (id INT) USING parquet")
    vanilla = session.sql("TABLE star_plain")._jdf.queryExecution().analyzed().toString()
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    hiding = session.sql("TABLE star_plain")._jdf.queryExecution().analyzed().toString()
    assert hiding == vanilla
    assert "Project" not in hiding


@dataframe_stars
def test_stars_in_explain_describe_scripts_and_foreach_batch_are_the_users(events, tmp_path):
    """EXPLAIN and DESCRIBE QUERY analyze the user's own query, inside an execution of theirs;
    a SQL script's statements and a foreachBatch function are the user's code: all hide."""
    session = events
    plan = session.sql("EXPLAIN SELECT * FROM star_events").collect()[0][0]
    assert "_row_id" not in plan.split("== Physical Plan ==")[1].split("\n")[1]
    described = session.sql("DESCRIBE QUERY SELECT * FROM star_events")
    assert [r[0] for r in described.collect()] == ["id", "name", "score"]
    scripted = session.sql("BEGIN SELECT * FROM star_events; END")
    assert scripted.columns == ["id", "name", "score"]
    seen: list[list[str]] = []

    def batch(frame, _):  # type: ignore[no-untyped-def]
        frame.createOrReplaceTempView("star_events_batch")
        seen.append(frame.sparkSession.sql("SELECT * FROM star_events").columns)
        seen.append(frame.withColumn("x", F.lit(1)).select("*").columns)

    query = (
        session.readStream.table("star_events")
        .writeStream.foreachBatch(batch)
        .option("checkpointLocation", str(tmp_path / "cp"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    # The batch is a new leaf (foreachBatch hands a LogicalRDD over): its own columns all show;
    # a star over the table inside the function is the user's and hides.
    assert seen[:2] == [["id", "name", "score"], ["id", "name", "_row_id", "score", "x"]]


@dataframe_stars
def test_checkpoints_start_a_new_leaf(events, tmp_path):
    """checkpoint() and localCheckpoint() cut the plan at a new leaf with no link to the table,
    as foreachBatch's batch: a star over them shows every column (docs/star.md)."""
    events.sparkContext.setCheckpointDir(str(tmp_path / "ckpt"))
    t = events.table("star_events").withColumn("upper", F.upper("name"))
    everything = ["id", "name", "_row_id", "score", "upper"]
    assert t.localCheckpoint().select("*").columns == everything
    assert t.checkpoint().select("*").columns == everything
