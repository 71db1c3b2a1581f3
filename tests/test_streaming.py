"""Every colsem feature on Structured Streaming: real streaming queries over parquet tables on
disk, checkpoints on disk, restarts from them. `*` over a stream of a table expands as over the
table (FLIP-348's BATCH_STREAMING); a stream's write into a table loses no hidden column; lateral
aliases, naming dialects and invariants hold on micro-batch plans, each checked against the
hand-inlined or vanilla query run as a stream over the same rows (docs/pipelines.md)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pyspark
import pytest
from golden import condition
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import LongType, StringType, StructField, StructType

pytestmark = pytest.mark.pipelines

SPARK_35 = pyspark.__version__.startswith("3.")
# Spark 3.5 has no Hints-batch injection: a DataFrame's select("*") stays vanilla there
# (docs/versions.md); SQL over a stream's temp view gets every feature on every line.
dataframe_stars = pytest.mark.skipif(SPARK_35, reason="Spark 3.5: DataFrame stars stay vanilla")
_names = itertools.count()


@pytest.fixture
def session(spark: SparkSession) -> Iterator[SparkSession]:
    s = spark.newSession()
    yield s
    for query in s.streams.active:
        query.stop()


def source_table(session: SparkSession, hidden: str | None = "_ingest_ts") -> str:
    """A fresh parquet table `(k, v, ts, _ingest_ts)`, tagged to hide `hidden`."""
    name = f"stream_src_{next(_names)}"
    props = f" TBLPROPERTIES ('colsem.hidden_columns' = '{hidden}')" if hidden else ""
    session.sql(
        f"CREATE TABLE {name} (k INT, v INT, ts TIMESTAMP, _ingest_ts TIMESTAMP) USING parquet"
        + props
    )
    return name


def insert(session: SparkSession, table: str, rows: list[tuple[int, int, int]]) -> None:
    """Rows (k, v, seconds): each call is one new file, so one more micro-batch.

    One file, not one per partition of the VALUES: the job commit renames its files one at a time,
    and a stream running meanwhile could list half of them, splitting the insert over two
    micro-batches for one query and not the other (update mode then emits different rows)."""
    values = ", ".join(
        f"({k}, {v}, TIMESTAMP '2026-01-01 00:00:00' + INTERVAL {s} SECONDS, "
        f"TIMESTAMP '2026-11-27 00:00:00')"
        for k, v, s in rows
    )
    session.sql(f"INSERT INTO {table} SELECT /*+ REPARTITION(1) */ * FROM VALUES {values}")


def run(
    session: SparkSession,
    frame: DataFrame,
    checkpoint: Path,
    mode: str = "append",
    batches: Callable[[], None] | None = None,
) -> tuple[list[str], list[tuple]]:
    """Runs `frame` into a memory sink until every file is read (then `batches`, then again),
    and returns the sink's columns and sorted rows."""
    name = f"sink_{next(_names)}"
    query = (
        frame.writeStream.format("memory")
        .queryName(name)
        .outputMode(mode)
        .option("checkpointLocation", str(checkpoint / name))
        .start()
    )
    try:
        query.processAllAvailable()
        if batches:
            batches()
            query.processAllAvailable()
    finally:
        query.stop()
    out = session.table(name)
    return out.columns, sorted(tuple(r) for r in out.collect())


# ---- SELECT * over streams ------------------------------------------------------------------


def test_stream_of_a_tagged_table_hides_as_the_table_does(session, tmp_path):
    table = source_table(session)
    insert(session, table, [(1, 10, 0), (2, 20, 1)])
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    assert session.sql(f"SELECT * FROM {table}").columns == ["k", "v", "ts"]
    stream = session.readStream.table(table)
    assert stream.isStreaming and stream.columns == ["k", "v", "ts", "_ingest_ts"]
    stream.createOrReplaceTempView("stream_view")
    view = session.sql("SELECT * FROM stream_view")
    assert view.isStreaming and view.columns == ["k", "v", "ts"]
    assert session.sql("SELECT _ingest_ts, * FROM stream_view").columns == [
        "_ingest_ts",
        "k",
        "v",
        "ts",
    ]
    columns, rows = run(session, view.select("k", "v"), tmp_path)
    assert (columns, rows) == (["k", "v"], [(1, 10), (2, 20)])
    # A batch temp view of the table hides the same column.
    session.table(table).createOrReplaceTempView("batch_view")
    assert session.sql("SELECT * FROM batch_view").columns == ["k", "v", "ts"]


@dataframe_stars
def test_dataframe_star_over_a_stream(session, tmp_path):
    table = source_table(session)
    insert(session, table, [(1, 10, 0)])
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    stream = session.readStream.table(table)
    assert stream.select("*").columns == ["k", "v", "ts"]
    assert stream.select(F.col("*")).columns == ["k", "v", "ts"]
    if not pyspark.__version__.startswith("4.0."):  # SQL's STREAM(t) came in Spark 4.1
        assert session.sql(f"SELECT * FROM STREAM({table})").columns == ["k", "v", "ts"]
    columns, rows = run(session, stream.select("*"), tmp_path)
    assert columns == ["k", "v", "ts"] and [r[:2] for r in rows] == [(1, 10)]


def test_stream_star_is_vanilla_by_default(session):
    table = source_table(session)
    session.readStream.table(table).createOrReplaceTempView("default_view")
    assert session.sql("SELECT * FROM default_view").columns == ["k", "v", "ts", "_ingest_ts"]


def test_file_streams_hide_by_pattern_and_field_metadata(session, tmp_path):
    folder = str(tmp_path / "files")
    session.createDataFrame(
        [(1, "a", "insert")], "id BIGINT, note STRING, _change STRING"
    ).write.parquet(folder)
    tagged = StructType(
        [
            StructField("id", LongType()),
            StructField("note", StringType(), metadata={"colsem.hidden": True}),
            StructField("_change", StringType()),
        ]
    )
    session.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
    session.conf.set("spark.colsem.star.excludePattern", "_.*")
    session.readStream.schema(tagged).parquet(folder).createOrReplaceTempView("file_stream")
    files = session.sql("SELECT * FROM file_stream")
    assert files.isStreaming and files.columns == ["id"]
    assert run(session, files, tmp_path) == (["id"], [(1,)])


# ---- streaming writes -----------------------------------------------------------------------


def test_stream_write_into_a_tagged_table_is_refused_or_complete(session, tmp_path):
    source = source_table(session)
    target = source_table(session)
    insert(session, source, [(1, 10, 0), (2, 20, 1)])
    insert(session, target, [(9, 90, 9)])
    before = sorted(tuple(r) for r in session.table(target).collect())
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    session.readStream.table(source).createOrReplaceTempView("write_view")
    visible = session.sql("SELECT * FROM write_view")
    with pytest.raises(AnalysisException) as err:
        visible.writeStream.option("checkpointLocation", str(tmp_path / "refused")).toTable(target)
    assert condition(err.value) == "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"
    assert err.value.getMessageParameters()["missingColumns"] == "`_ingest_ts`"
    assert sorted(tuple(r) for r in session.table(target).collect()) == before
    # Naming the hidden column writes every value (into a table only streams write: a file sink's
    # log hides files written by batch INSERTs, in vanilla Spark too).
    complete = source_table(session)
    whole = session.sql("SELECT *, _ingest_ts FROM write_view")
    query = whole.writeStream.option("checkpointLocation", str(tmp_path / "kept")).toTable(complete)
    query.processAllAvailable()
    query.stop()
    rows = session.sql(f"SELECT k, _ingest_ts IS NOT NULL FROM {complete}").collect()
    assert sorted(tuple(r) for r in rows) == [(1, True), (2, True)]


def test_foreach_batch_writes_lose_nothing(session, tmp_path):
    source = source_table(session)
    target = source_table(session)
    insert(session, source, [(1, 10, 0)])
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    session.readStream.table(source).createOrReplaceTempView("fb_view")
    errors: list[str] = []

    def write(batch: DataFrame, batch_id: int) -> None:
        batch.createOrReplaceTempView("fb_batch")
        try:
            batch.sparkSession.sql(f"INSERT INTO {target} BY NAME SELECT * FROM fb_batch")
        except AnalysisException as exc:
            errors.append(condition(exc))

    query = (
        session.sql("SELECT * FROM fb_view")
        .writeStream.foreachBatch(write)
        .option("checkpointLocation", str(tmp_path / "fb"))
        .start()
    )
    query.processAllAvailable()
    query.stop()
    assert errors == ["COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"]
    assert session.table(target).count() == 0


def test_a_stream_that_never_read_a_hidden_column_writes_as_vanilla(session, tmp_path):
    """Only a column a `*` of the stream's query left out is refused: a stream that selects its
    columns by name writes into a table with a hidden column of its own as vanilla Spark does
    (the column is NULL, as for batch `INSERT INTO dst (k, v) SELECT ...`)."""
    source = source_table(session)
    target = f"stream_dst_{next(_names)}"
    session.sql(
        f"CREATE TABLE {target} (k INT, v INT, _audit STRING) USING parquet "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_audit')"
    )
    insert(session, source, [(1, 10, 0), (2, 20, 1)])
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    frame = session.readStream.table(source).select("k", "v")
    query = frame.writeStream.option("checkpointLocation", str(tmp_path / "named")).toTable(target)
    query.processAllAvailable()
    query.stop()
    assert sorted(
        tuple(r) for r in session.sql(f"SELECT k, v, _audit FROM {target}").collect()
    ) == [
        (1, 10, None),
        (2, 20, None),
    ]
    # A `*` that left the target's own hidden column out is still refused.
    session.readStream.table(source).createOrReplaceTempView("named_src")
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT * FROM named_src").writeStream.option(
            "checkpointLocation", str(tmp_path / "starred")
        ).toTable(source)
    assert condition(err.value) == "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"


def test_foreach_batch_hands_over_every_column_of_the_stream(session, tmp_path):
    """foreachBatch's DataFrame is the micro-batch's rows with no link to the table they came from
    (a LogicalRDD): `*` over it shows every column the stream's query carries, so a batch written
    or merged into a table keeps its hidden values. To leave them out, `*` in the stream's query."""
    source = source_table(session)
    insert(session, source, [(1, 10, 0)])
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    seen: list[list[str]] = []

    def columns(batch: DataFrame, batch_id: int) -> None:
        batch.createOrReplaceTempView("fb_columns")
        seen.append(batch.sparkSession.sql("SELECT * FROM fb_columns").columns)

    for i, frame in enumerate(
        (session.readStream.table(source), session.readStream.table(source).selectExpr("*"))
    ):
        query = (
            frame.writeStream.foreachBatch(columns)
            .option("checkpointLocation", str(tmp_path / f"fb{i}"))
            .start()
        )
        query.processAllAvailable()
        query.stop()
    expected = [["k", "v", "ts", "_ingest_ts"]]
    expected.append(expected[0] if SPARK_35 else ["k", "v", "ts"])  # 3.5: DataFrame stars vanilla
    assert seen == expected


def test_colsem_columns_follows_a_filtered_views_columns(session):
    """A temp view of a filtered DataFrame, batch or stream, is its table's columns:
    `colsem_columns` says so, as `*` does."""
    table = source_table(session)
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    session.table(table).where("k > 0").createOrReplaceTempView("filtered_batch")
    session.readStream.table(table).where("k > 0").createOrReplaceTempView("filtered_stream")
    for view in ("filtered_batch", "filtered_stream"):
        rows = session.sql(f"SELECT name, hidden, reasons FROM colsem_columns('{view}')").collect()
        assert [tuple(r) for r in rows] == [
            ("k", False, None),
            ("v", False, None),
            ("ts", False, None),
            ("_ingest_ts", True, "table property colsem.hidden_columns (TAGGED)"),
        ]
        assert session.sql(f"SELECT * FROM {view}").columns == ["k", "v", "ts"]


# ---- lateral aliases, dialects and invariants on micro-batches ---------------------------------


def same_as_inlined(
    session: SparkSession,
    tmp_path: Path,
    view: str,
    lateral: str,
    inlined: str,
    mode: str,
    batches: list[list[tuple[int, int, int]]],
) -> tuple[list[str], list[tuple]]:
    """Runs both queries side by side as streams over one table, a file and a micro-batch per
    batch of rows, and checks they give the same columns and rows."""
    table = source_table(session, hidden=None)
    session.readStream.table(table).withWatermark("ts", "10 seconds").createOrReplaceTempView(view)
    queries = {}
    for label, sql in (("lateral", lateral), ("inlined", inlined)):
        queries[label] = (
            session.sql(sql)
            .writeStream.format("memory")
            .queryName(f"{view}_{label}")
            .outputMode(mode)
            .option("checkpointLocation", str(tmp_path / label))
            .start()
        )
    try:
        for rows in batches:
            insert(session, table, rows)
            for query in queries.values():
                query.processAllAvailable()
    finally:
        for query in queries.values():
            query.stop()
    got, expected = (
        (
            session.table(f"{view}_{label}").columns,
            sorted(tuple(r) for r in session.table(f"{view}_{label}").collect()),
        )
        for label in ("lateral", "inlined")
    )
    assert got == expected
    return got


BATCHES = [[(1, 10, 0), (2, 20, 1), (1, 5, 2)], [(2, 1, 3), (3, 7, 30)], [(1, 1, 60)]]


def test_lateral_aliases_stateless(session, tmp_path):
    got = same_as_inlined(
        session,
        tmp_path,
        "lca_rows",
        "SELECT k * 2 AS d, d + v AS e, e * 10 AS f FROM lca_rows WHERE v > 1",
        "SELECT k * 2 AS d, k * 2 + v AS e, (k * 2 + v) * 10 AS f FROM lca_rows WHERE v > 1",
        "append",
        BATCHES,
    )
    assert got[1] == [(2, 7, 70), (2, 12, 120), (4, 24, 240), (6, 13, 130)]


def test_lateral_aliases_in_aggregates_complete_and_update(session, tmp_path):
    lateral = "SELECT k AS a, a * 10 AS b, sum(b) AS s, s + 1 AS t FROM {} GROUP BY a, b"
    inlined = "SELECT k AS a, k * 10 AS b, sum(k * 10) AS s, sum(k * 10) + 1 AS t FROM {} GROUP BY k, k * 10"
    for mode in ("complete", "update"):
        view = f"lca_agg_{mode}"
        got = same_as_inlined(
            session,
            tmp_path / mode,
            view,
            lateral.format(view),
            inlined.format(view),
            mode,
            BATCHES,
        )
        assert got[0] == ["a", "b", "s", "t"]
        if mode == "complete":
            assert got[1] == [(1, 10, 30, 31), (2, 20, 40, 41), (3, 30, 30, 31)]


def test_lateral_aliases_in_a_watermarked_window_append(session, tmp_path):
    got = same_as_inlined(
        session,
        tmp_path,
        "lca_window",
        "SELECT window(ts, '10 seconds') AS w, k AS a, a * 10 AS b, sum(b) AS s "
        "FROM lca_window GROUP BY w, a, b",
        "SELECT window(ts, '10 seconds') AS w, k AS a, k * 10 AS b, sum(k * 10) AS s "
        "FROM lca_window GROUP BY window(ts, '10 seconds'), k, k * 10",
        "append",
        BATCHES,
    )
    # Windows closed by the watermark (50 s after the last batch): [0, 10) and [30, 40).
    assert [(r[1], r[2], r[3]) for r in got[1]] == [(1, 10, 20), (2, 20, 40), (3, 30, 30)]


def test_lateral_aliases_after_drop_duplicates_within_watermark(session, tmp_path):
    table = source_table(session, hidden=None)
    insert(session, table, [(1, 10, 0), (1, 11, 1), (2, 20, 2)])
    (
        session.readStream.table(table)
        .withWatermark("ts", "10 seconds")
        .dropDuplicatesWithinWatermark(["k"])
        .createOrReplaceTempView("dedup")
    )
    got = run(session, session.sql("SELECT k * 2 AS d, d + 1 AS e FROM dedup"), tmp_path / "l")
    expected = run(session, session.sql("SELECT k * 2 AS d, k * 2 + 1 AS e FROM dedup"), tmp_path)
    assert got == expected == (["d", "e"], [(2, 3), (4, 5)])


def test_lateral_aliases_in_a_stream_static_join(session, tmp_path):
    table = source_table(session, hidden=None)
    insert(session, table, BATCHES[0])
    session.createDataFrame([(1, "one"), (2, "two")], "k INT, name STRING").createOrReplaceTempView(
        "join_dim"
    )
    session.readStream.table(table).createOrReplaceTempView("join_stream")
    lateral = (
        "SELECT s.k AS key, d.name AS n, upper(n) AS un, concat(un, key) AS tag "
        "FROM join_stream s JOIN join_dim d ON s.k = d.k"
    )
    inlined = (
        "SELECT s.k AS key, d.name AS n, upper(d.name) AS un, concat(upper(d.name), s.k) AS tag "
        "FROM join_stream s JOIN join_dim d ON s.k = d.k"
    )
    got = run(session, session.sql(lateral), tmp_path / "l")
    assert got == run(session, session.sql(inlined), tmp_path / "i")
    assert got[1] == [
        (1, "one", "ONE", "ONE1"),
        (1, "one", "ONE", "ONE1"),
        (2, "two", "TWO", "TWO2"),
    ]


def test_dialect_and_invariants_across_a_restart(session, tmp_path):
    """A stateful query under postgres names and invariants, stopped and restarted from its
    checkpoint with more rows in between: the same names, the counts carried on, no alarm."""
    table = source_table(session, hidden=None)
    insert(session, table, BATCHES[0])
    session.conf.set("spark.colsem.naming.dialect", "postgres")
    session.conf.set("spark.colsem.invariants", "error")
    session.readStream.table(table).createOrReplaceTempView("restart_view")
    sql = "SELECT k, count(*), sum(v), max(v) + 1 FROM restart_view GROUP BY k"
    checkpoint = tmp_path / "ck"

    def start() -> pyspark.sql.streaming.StreamingQuery:
        return (
            session.sql(sql)
            .writeStream.format("memory")
            .queryName("restart_sink")
            .outputMode("complete")
            .option("checkpointLocation", str(checkpoint))
            .start()
        )

    first = start()
    first.processAllAvailable()
    first.stop()
    assert session.table("restart_sink").columns == ["k", "count", "sum", "?column?"]
    insert(session, table, BATCHES[1])
    second = start()
    second.processAllAvailable()
    second.stop()
    out = session.table("restart_sink")
    assert out.columns == ["k", "count", "sum", "?column?"]
    assert sorted(tuple(r) for r in out.collect()) == [(1, 2, 15, 11), (2, 2, 21, 21), (3, 1, 7, 8)]
    assert second.exception() is None


def test_a_changed_dialect_renames_a_restarted_query_and_keeps_its_state(session, tmp_path):
    """docs/pipelines.md, "Restarts": the names follow the settings the query restarts with; the
    aggregation state does not hold output names, so the counts carry on."""
    table = source_table(session, hidden=None)
    insert(session, table, BATCHES[0])
    session.readStream.table(table).createOrReplaceTempView("rename_view")
    sql = "SELECT k, count(*) FROM rename_view GROUP BY k"
    checkpoint = str(tmp_path / "ck")

    def start() -> pyspark.sql.streaming.StreamingQuery:
        query = (
            session.sql(sql)
            .writeStream.format("memory")
            .queryName("rename_sink")
            .outputMode("complete")
            .option("checkpointLocation", checkpoint)
            .start()
        )
        query.processAllAvailable()
        query.stop()
        return query

    start()
    assert session.table("rename_sink").columns == ["k", "count(1)"]
    session.conf.set("spark.colsem.naming.dialect", "postgres")
    insert(session, table, BATCHES[1])
    start()
    out = session.table("rename_sink")
    assert out.columns == ["k", "count"]
    assert sorted(tuple(r) for r in out.collect()) == [(1, 2), (2, 2), (3, 1)]


# ---- what Spark reports of a stream ----------------------------------------------------------

# How each kind of sink is started: DSv2 (memory, noop), the file sink, foreachBatch, toTable.
SINKS: dict[str, Callable] = {
    "memory": lambda writer, name, folder: writer.format("memory").queryName(name).start(),
    "noop": lambda writer, name, folder: writer.format("noop").start(),
    "parquet": lambda writer, name, folder: writer.format("parquet").start(str(folder / name)),
    "foreachBatch": lambda writer, name, folder: writer.foreachBatch(
        lambda df, i: df.count()
    ).start(),
    "toTable": lambda writer, name, folder: writer.toTable(name),
    # A stateful query (the state operator's metrics are reported too).
    "memory_aggregate": lambda writer, name, folder: (
        writer.format("memory").queryName(name).outputMode("complete").start()
    ),
}


# The first micro-batch's `sink.numOutputRows` as vanilla Spark reports it: a DSv2 sink's written
# rows; -1 for a sink of the older API (the file sink, foreachBatch, a parquet table's toTable).
SINK_ROWS = {
    "memory": 3,
    "noop": 3,
    "parquet": -1,
    "foreachBatch": -1,
    "toTable": -1,
    "memory_aggregate": 2,
}


@pytest.mark.parametrize("sink", list(SINKS))
def test_stream_progress_is_vanillas_under_every_invariants_setting(spark, tmp_path, sink):
    """Schema invariants keep Spark's streaming progress: with `warn` or `error` the row check sits
    below the write node, where Spark reads the sink's output rows, so `recentProgress` and the
    listener's events are vanilla's (colsem off altogether) under every setting."""
    from stream_progress import SETTINGS, observe

    source = tmp_path / "source"
    spark.range(3).selectExpr("id AS k", "id * 10 AS v").coalesce(1).write.parquet(str(source))

    def run(setting: str) -> dict[str, list]:
        session = spark.newSession()
        frame = session.readStream.schema("k BIGINT, v BIGINT").parquet(str(source))
        name = f"progress_{sink}_{setting}".lower()
        if sink == "memory_aggregate":
            frame = frame.groupBy((frame.k % 2).alias("parity")).count()
        else:
            frame = frame.selectExpr("k", "v + 1 AS w")
        writer = frame.writeStream.option("checkpointLocation", str(tmp_path / f"ck-{name}"))
        return observe(session, setting, lambda: SINKS[sink](writer, name, tmp_path))

    vanilla = run("vanilla")
    assert vanilla["progress"][0][:3] == [0, 3, SINK_ROWS[sink]], vanilla
    assert vanilla["progress"][0][4] == ([[2, 2]] if sink == "memory_aggregate" else []), vanilla
    assert vanilla["events"] == vanilla["progress"]
    for setting in list(SETTINGS)[1:]:
        assert run(setting) == vanilla, setting


def test_docs_streaming_example_prints_what_the_doc_shows(tmp_path):
    """docs/pipelines.md's streaming job, run as written, prints exactly the block under it."""
    import re

    from conftest import ROOT
    from docs_sections import run_section_example

    doc = ROOT / "docs" / "pipelines.md"
    proc = run_section_example(doc, "## A streaming job", tmp_path / "example")
    assert proc.returncode == 0, proc.stderr[-4000:]
    section = doc.read_text().split("## A streaming job")[1]
    expected = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    assert proc.stdout.rstrip() == expected.rstrip()  # show() ends with an empty line


@dataframe_stars
def test_stream_star_in_a_spark_connect_session(tmp_path):
    """The same stream through a local Spark Connect server (automatic registration puts colsem
    there): SQL over the stream's temp view and select("*") leave the hidden column out."""
    import star_matrix
    from conftest import SESSION_PRELUDE, local_connect_port, result_of, run_python

    script = (
        SESSION_PRELUDE
        + f"""
spark = (SparkSession.builder.remote("local[1]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "1")
         .config("spark.sql.warehouse.dir", {str(tmp_path / "warehouse")!r}).getOrCreate())
spark.sql("CREATE TABLE events (id INT, v STRING, _ingest_ts TIMESTAMP) USING parquet "
          "TBLPROPERTIES ('colsem.hidden_columns' = '_ingest_ts')")
spark.sql("INSERT INTO events VALUES (1, 'a', now()), (2, 'b', now())")
sys.path.insert(0, {str(Path(__file__).parent)!r})
import star_matrix
mx_events, mx_dims = star_matrix.create_tables(spark)
vanilla = star_matrix.matrix(spark, mx_events, mx_dims)
spark.conf.set("spark.colsem.star.exclude", "TAGGED")
hiding = star_matrix.matrix(spark, mx_events, mx_dims)
stream = spark.readStream.table("events")
stream.createOrReplaceTempView("ev")
q = (stream.select("*").writeStream.format("memory").queryName("connect_sink")
     .option("checkpointLocation", {str(tmp_path / "ck")!r}).start())
q.processAllAvailable()
q.stop()
emit(session=type(spark).__module__, vanilla=vanilla, hiding=hiding,
     sql=spark.sql("SELECT * FROM ev").columns,
     select=stream.select("*").columns,
     rows=sorted(list(r) for r in spark.table("connect_sink").collect()))
spark.stop()
"""
    )
    with local_connect_port():
        proc = run_python(script)
    out = result_of(proc)
    # The operator matrix (tests/star_matrix.py) through Connect, as in a classic session.
    vanilla, hiding = out.pop("vanilla"), out.pop("hiding")
    assert len(vanilla) == len(hiding) > 100
    expected = star_matrix.expected(vanilla, spark_35=False, connect=True)
    assert {case: hiding[case] for case in expected if hiding[case] != expected[case]} == {}
    assert out == {
        "session": "pyspark.sql.connect.session",
        "sql": ["id", "v"],
        "select": ["id", "v"],
        "rows": [[1, "a"], [2, "b"]],
    }


def test_invariants_warn_logs_nothing_on_micro_batches_across_a_restart(tmp_path):
    """`warn` logs each violation (`[COLSEM_...]` lines on the driver's log); a stateful stream,
    stopped and restarted from its checkpoint, logs none."""
    from conftest import SESSION_PRELUDE, result_of, run_python

    script = (
        SESSION_PRELUDE
        + f"""
spark = (local_builder().config("spark.sql.warehouse.dir", {str(tmp_path / "warehouse")!r})
         .getOrCreate())
spark.sparkContext.setLogLevel("WARN")
spark.conf.set("spark.colsem.invariants", "warn")
spark.conf.set("spark.colsem.naming.dialect", "postgres")
spark.sql("CREATE TABLE src (k INT, v INT) USING parquet")
spark.sql("INSERT INTO src VALUES (1, 10), (2, 20)")
spark.readStream.table("src").createOrReplaceTempView("s")
def run():
    q = (spark.sql("SELECT k, k * 10 AS kk, count(*), sum(kk) FROM s GROUP BY k, kk")
         .writeStream.format("memory").queryName("warn_sink").outputMode("complete")
         .option("checkpointLocation", {str(tmp_path / "ck")!r}).start())
    q.processAllAvailable()
    q.stop()
run()
spark.sql("INSERT INTO src VALUES (1, 5)")
run()
out = spark.table("warn_sink")
emit(columns=out.columns, rows=sorted(list(r) for r in out.collect()))
spark.stop()
"""
    )
    proc = run_python(script)
    assert result_of(proc) == {
        "columns": ["k", "kk", "count", "sum"],
        "rows": [[1, 10, 2, 20], [2, 20, 1, 20]],
    }
    assert "COLSEM_" not in proc.stderr, proc.stderr[-4000:]
