"""The matrix of `*` over every operator a user can put over a table or a stream of it.

Generated, not written case by case: each operator below is applied to a batch read and to a stream
of the same table, then read four ways (`select("*")`, `alias("t").select("t.*")`, and `SELECT *` /
`SELECT t.*` over a temp view of it), and through its SQL form where it has one. `matrix` returns
every case's columns (or its error class); the tests run it with colsem's star settings on and off
and derive the expected columns from the operator's kind: an operator that passes its input's
columns on (`keeps`) shows what the table shows, one that chooses columns shows what vanilla Spark
shows. Plain PySpark, so the same code runs in a classic session, a Spark Connect client
(tests/test_streaming.py) and over Delta and Iceberg tables (tests/test_table_formats.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

# The hidden columns of the two tables `create_tables` makes: `_ingest` of the events,
# `_dim_audit` of the dimension table a join reads.
HIDDEN = ("_ingest", "_dim_audit")
_views = itertools.count()


@dataclass(frozen=True)
class Operator:
    """One operator: how it is applied to a DataFrame (given the dimension table's DataFrame), its
    SQL form over `{src}` (and `{dims}`) if it has one, and whether it passes its input's columns
    on unchanged (`keeps`) or chooses them. `keeps_on_35`: on Spark 3.5 a DataFrame's
    `select("*")` is vanilla, a projection of every column, which chooses (its SQL forms go
    through colsem's parser there)."""

    name: str
    apply: Callable
    keeps: bool
    sql: str | None = None
    keeps_on_35: bool | None = None
    side: str | None = None  # a qualifier inside the operator's output, read as `<side>.*` too


def _watermarked(frame):  # type: ignore[no-untyped-def]
    return frame.withWatermark("ts", "10 seconds")


def _self_join(frame, streams):  # type: ignore[no-untyped-def]
    a = _watermarked(frame).alias("a")
    b = _watermarked(streams()).alias("b")
    return a.join(b, (a["id"] == b["id"]) & (a["ts"] == b["ts"]))


def _observe(frame):  # type: ignore[no-untyped-def]
    from pyspark.sql import functions as F

    return frame.observe(f"rows_{next(_views)}", F.count(F.lit(1)).alias("n"))


def _join_on(frame, dims):  # type: ignore[no-untyped-def]
    return frame.join(dims, frame["id"] == dims["id"])


def _drop_column(frame):  # type: ignore[no-untyped-def]
    from pyspark.sql import functions as F

    return frame.drop(F.col("k"))


def _with_column(frame):  # type: ignore[no-untyped-def]
    from pyspark.sql import functions as F

    return frame.withColumn("k2", F.col("k") + 1)


def _lit(value):  # type: ignore[no-untyped-def]
    from pyspark.sql import functions as F

    return F.lit(value)


def _schema(frame, names):  # type: ignore[no-untyped-def]
    from pyspark.sql.types import StructType

    return StructType([frame.schema[n] for n in names])


OPERATORS = (
    Operator("table", lambda f, d, s: f, True, "SELECT * FROM {src}"),
    Operator("where", lambda f, d, s: f.where("k > 0"), True, "SELECT * FROM {src} WHERE k > 0"),
    Operator(
        "select *",
        lambda f, d, s: f.select("*"),
        True,
        "SELECT * FROM (SELECT * FROM {src})",
        keeps_on_35=False,
    ),
    Operator(
        "select named",
        lambda f, d, s: f.select("id", "_ingest"),
        False,
        "SELECT * FROM (SELECT id, _ingest FROM {src})",
    ),
    # DataFrame calls that carry the input's other columns over pass them on (issue 55); a column
    # the call names shows ("... named hidden").
    Operator("withColumn", lambda f, d, s: _with_column(f), True, keeps_on_35=False),
    Operator(
        "withColumns",
        lambda f, d, s: f.withColumns({"k2": f["k"] + 1, "one": _lit(1)}),
        True,
        keeps_on_35=False,
    ),
    Operator(
        "withColumnRenamed", lambda f, d, s: f.withColumnRenamed("k", "kk"), True, keeps_on_35=False
    ),
    Operator(
        "withColumnsRenamed",
        lambda f, d, s: f.withColumnsRenamed({"k": "kk"}),
        True,
        keeps_on_35=False,
    ),
    Operator(
        "withMetadata", lambda f, d, s: f.withMetadata("k", {"note": "x"}), True, keeps_on_35=False
    ),
    Operator("drop column", lambda f, d, s: _drop_column(f), True, keeps_on_35=False),
    Operator("drop name", lambda f, d, s: f.drop("k"), True, keeps_on_35=False),
    Operator("na.fill", lambda f, d, s: f.na.fill("z"), True, keeps_on_35=False),
    Operator("fillna", lambda f, d, s: f.fillna(0), True, keeps_on_35=False),
    Operator("na.replace", lambda f, d, s: f.na.replace("a", "b"), True, keeps_on_35=False),
    Operator("replace", lambda f, d, s: f.replace(1, 3), True, keeps_on_35=False),
    Operator("na.drop", lambda f, d, s: f.na.drop(), True),
    Operator("dropna", lambda f, d, s: f.dropna(subset=["k"]), True),
    Operator("unionByName", lambda f, d, s: f.unionByName(s()), True),
    Operator(
        "unionByName missing",
        lambda f, d, s: f.unionByName(s().drop("k"), allowMissingColumns=True),
        True,
    ),
    Operator("withColumn named hidden", lambda f, d, s: f.withColumn("_ingest", f["id"]), False),
    Operator(
        "withColumnRenamed named hidden",
        lambda f, d, s: f.withColumnRenamed("_ingest", "ing"),
        False,
    ),
    Operator("withMetadata named hidden", lambda f, d, s: f.withMetadata("_ingest", {}), False),
    Operator("na.fill named hidden", lambda f, d, s: f.na.fill("z", ["_ingest"]), False),
    Operator("to", lambda f, d, s: f.to(_schema(f, ["_ingest", "id"])), False),
    Operator("toDF", lambda f, d, s: f.toDF(*f.columns), False),
    Operator("coalesce", lambda f, d, s: f.coalesce(1), True),
    Operator("crossJoin", lambda f, d, s: f.crossJoin(d()), True),
    Operator("distinct", lambda f, d, s: f.distinct(), True, "SELECT DISTINCT * FROM {src}"),
    Operator("exceptAll", lambda f, d, s: f.exceptAll(s()), True),
    Operator("intersect", lambda f, d, s: f.intersect(s()), True),
    Operator("subtract", lambda f, d, s: f.subtract(s()), True),
    Operator("limit", lambda f, d, s: f.limit(5), True, "SELECT * FROM {src} LIMIT 5"),
    Operator("offset", lambda f, d, s: f.offset(0), True),
    Operator("sort", lambda f, d, s: f.sort("id"), True, "SELECT * FROM {src} ORDER BY id"),
    Operator("sortWithinPartitions", lambda f, d, s: f.sortWithinPartitions("id"), True),
    Operator("sample", lambda f, d, s: f.sample(1.0, seed=1), True),
    Operator("sampleBy", lambda f, d, s: f.sampleBy("k", {1: 1.0}, seed=1), True),
    Operator("randomSplit", lambda f, d, s: f.randomSplit([1.0, 1.0], seed=1)[0], True),
    Operator("repartitionByRange", lambda f, d, s: f.repartitionByRange(2, "id"), True),
    Operator("transform", lambda f, d, s: f.transform(lambda x: x.where("k > 0")), True),
    Operator("persist", lambda f, d, s: f.persist(), True),
    Operator("TABLE", lambda f, d, s: f, True, "TABLE {src}"),
    Operator("pipe FROM", lambda f, d, s: f, True, "FROM {src} |> WHERE k > 0 |> ORDER BY id"),
    Operator(
        "withWatermark",
        lambda f, d, s: _watermarked(f),
        True,
        "SELECT * FROM {src} WATERMARK ts DELAY OF INTERVAL 10 SECONDS",
    ),
    Operator("dropDuplicates", lambda f, d, s: _watermarked(f).dropDuplicates(["id", "ts"]), True),
    Operator(
        "dropDuplicatesWithinWatermark",
        lambda f, d, s: _watermarked(f).dropDuplicatesWithinWatermark(["id"]),
        True,
    ),
    Operator(
        "join static",
        lambda f, d, s: f.alias("e").join(d().alias("d"), "id"),
        True,
        "SELECT * FROM {src} JOIN {dims} USING (id)",
    ),
    Operator(
        "join static on",
        lambda f, d, s: _join_on(f, d()),
        True,
        "SELECT * FROM {src} e JOIN {dims} d ON e.id = d.id",
    ),
    Operator("join self", lambda f, d, s: _self_join(f, s), True, side="a"),
    Operator("union", lambda f, d, s: f.union(s()), True),
    Operator(
        "repartition",
        lambda f, d, s: f.repartition(2),
        True,
        "SELECT /*+ REPARTITION(2) */ * FROM {src}",
    ),
    Operator(
        "hint",
        lambda f, d, s: f.hint("broadcast"),
        True,
        "SELECT /*+ BROADCAST(x) */ * FROM {src} x",
    ),
    Operator("alias", lambda f, d, s: f.alias("x"), True, "SELECT x.* FROM {src} AS x"),
    Operator("observe", lambda f, d, s: _observe(f), True),
)


# Every public method of PySpark's DataFrame (classic and Connect), by hand, by what a `*` over its
# result shows (tests/test_star_matrix.py fails on a method missing here, so a new PySpark release
# is looked at): PASSES its input's columns on (hidden ones stay hidden; the matrix above runs
# these), CHOOSES its columns (a `*` over it shows what it names), NEW_LEAF (a plan with no link
# to the table: every column shows), NO_DATAFRAME (returns no DataFrame to put a `*` over).
PASSES, CHOOSES, NEW_LEAF, NO_DATAFRAME = "passes", "chooses", "new leaf", "no DataFrame"
METHODS = {
    **dict.fromkeys(
        (
            "alias coalesce crossJoin distinct drop dropDuplicates dropDuplicatesWithinWatermark "
            "drop_duplicates dropna exceptAll fillna filter hint intersect intersectAll join "
            "lateralJoin limit na observe offset orderBy persist cache randomSplit repartition "
            "repartitionById repartitionByRange replace sample sampleBy sort sortWithinPartitions "
            "subtract transform union unionAll unionByName unpersist where withColumn "
            "withColumnRenamed withColumns withColumnsRenamed withMetadata withWatermark "
            "nearestByJoin zipWithIndex drop_duplicates_within_watermark"
        ).split(),
        PASSES,
    ),
    **dict.fromkeys(
        (
            "select selectExpr agg groupBy groupby cube rollup groupingSets to toDF melt unpivot "
            "transpose describe summary crosstab freqItems colRegex metadataColumn scalar exists "
            "asTable mapInArrow mapInPandas zip"
        ).split(),
        CHOOSES,
    ),
    **dict.fromkeys("checkpoint localCheckpoint toJSON".split(), NEW_LEAF),
    **dict.fromkeys(
        (
            "approxQuantile collect columns corr count cov createGlobalTempView "
            "createOrReplaceGlobalTempView createOrReplaceTempView createTempView dtypes "
            "executionInfo explain first foreach foreachPartition head inputFiles isEmpty isLocal "
            "isStreaming is_cached mergeInto pandas_api plot printSchema rdd registerTempTable "
            "sameSemantics schema semanticHash show sparkSession sql_ctx stat storageLevel tail "
            "take toArrow toLocalIterator toPandas write writeStream writeTo "
            # PySpark 3.5's: pandas-on-Spark frames, and Connect's session check and plan factory.
            "to_koalas to_pandas_on_spark checkSameSparkSession withPlan"
        ).split(),
        NO_DATAFRAME,
    ),
}


def create_tables(spark, using: str = "USING parquet", prefix: str = "") -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The events table (`_ingest` hidden) and the dimension table (`_dim_audit` hidden), with a
    few rows; returns their names."""
    n = next(_views)
    events, dims = f"{prefix}mx_events_{n}", f"{prefix}mx_dims_{n}"
    spark.sql(
        f"CREATE TABLE {events} (id BIGINT, k INT, ts TIMESTAMP, _ingest STRING) {using} "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_ingest')"
    )
    spark.sql(
        f"CREATE TABLE {dims} (id BIGINT, label STRING, _dim_audit STRING) {using} "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_dim_audit')"
    )
    spark.sql(
        f"INSERT INTO {events} VALUES (1, 1, TIMESTAMP '2026-01-01 00:00:00', 'a'), "
        "(2, -1, TIMESTAMP '2026-01-01 00:00:05', 'b')"
    )
    spark.sql(f"INSERT INTO {dims} VALUES (1, 'one', 'x'), (2, 'two', 'y')")
    return events, dims


def _error(exc: Exception) -> str:
    condition = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    return f"ERROR {condition() if condition else type(exc).__name__}"


def _columns(make: Callable, *args: object) -> list[str] | str:  # type: ignore[type-arg]
    """The columns of `make(*args)`, or the error class it fails with."""
    try:
        return list(make(*args).columns)
    except Exception as exc:  # an operator or form the line lacks: vanilla's error, compared
        return _error(exc)


def matrix(spark, events: str, dims: str) -> dict[str, list[str] | str]:  # type: ignore[no-untyped-def]
    """Every case's columns in `spark`, by `<batch|stream>/<operator>/<form>`."""

    def read_batch():  # type: ignore[no-untyped-def]
        return spark.table(events)

    def read_stream():  # type: ignore[no-untyped-def]
        return spark.readStream.table(events)

    def dimensions():  # type: ignore[no-untyped-def]
        return spark.table(dims)

    def starred(op: Operator, read: Callable, qualifier: str | None):  # type: ignore[no-untyped-def,type-arg]
        frame = op.apply(read(), dimensions, read)
        if qualifier is not None and qualifier == op.side:
            return frame.select(f"{qualifier}.*")
        return frame.alias(qualifier).select(f"{qualifier}.*") if qualifier else frame.select("*")

    def viewed(op: Operator, read: Callable, view: str):  # type: ignore[no-untyped-def,type-arg]
        op.apply(read(), dimensions, read).createOrReplaceTempView(view)
        return spark.table(view)

    out: dict[str, list[str] | str] = {}
    for kind, read in (("batch", read_batch), ("stream", read_stream)):
        source_view = f"mx_src_{next(_views)}"
        read().createOrReplaceTempView(source_view)
        for op in OPERATORS:
            case = f"{kind}/{op.name}"
            out[f"{case}/df *"] = _columns(starred, op, read, None)
            out[f"{case}/df t.*"] = _columns(starred, op, read, "t")
            if op.side:
                out[f"{case}/df {op.side}.*"] = _columns(starred, op, read, op.side)
            view = f"mx_v_{next(_views)}"
            made = _columns(viewed, op, read, view)
            if isinstance(made, str):
                out[f"{case}/view"] = made
            else:
                out[f"{case}/view *"] = _columns(spark.sql, f"SELECT * FROM {view}")
                out[f"{case}/view t.*"] = _columns(spark.sql, f"SELECT t.* FROM {view} t")
            if op.sql:
                out[f"{case}/sql"] = _columns(spark.sql, op.sql.format(src=source_view, dims=dims))
    out["stream/STREAM(t)/sql"] = _columns(spark.sql, f"SELECT * FROM STREAM({events})")
    return out


# Through Spark Connect the planner's `na.fill` does not say whether columns were named; colsem
# reads it from what was rewritten (DataFrameCalls.RewriteOfKind): naming every column of the
# value's kind (here `_ingest`, the events' only string column) reads as naming none, so the
# named hidden column stays hidden there (docs/versions.md).
HIDDEN_ON_CONNECT = frozenset({"na.fill named hidden"})


def expected(
    vanilla: dict[str, list[str] | str], spark_35: bool, connect: bool = False
) -> dict[str, list[str] | str]:
    """What each case shows while `TAGGED` hides: vanilla's columns without the hidden ones where
    the operator passes columns on, vanilla's where it chooses them; vanilla's error where vanilla
    refuses. Spark 3.5: DataFrame stars stay vanilla (no Hints-batch rule, docs/versions.md);
    Connect: HIDDEN_ON_CONNECT's calls hide what they name."""
    keeps = {op.name: op for op in OPERATORS}
    out: dict[str, list[str] | str] = {}
    for case, columns in vanilla.items():
        _, name, form = case.split("/")
        op = keeps.get(name)
        passes = op.keeps if op else True
        if connect and name in HIDDEN_ON_CONNECT:
            passes = True
        if spark_35 and form != "sql" and op and op.keeps_on_35 is not None:
            passes = op.keeps_on_35
        if isinstance(columns, str) or not passes or (spark_35 and form.startswith("df")):
            out[case] = columns
        else:
            out[case] = [c for c in columns if c not in HIDDEN]
    return out
