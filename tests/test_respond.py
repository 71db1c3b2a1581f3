"""colsem.respond / respond_iter / respond_text: jdbc and json documents whose schema comes from the
analyzed plan, with MISSING (absent map key / variant path) told apart from NULL."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import colsem
import pytest
from colsem import ColsemResponseError
from golden import running_line

LINE = running_line()
# Spark 3.5 has no VARIANT: there MISSING comes from MAP lookups only (docs/versions.md).
HAS_VARIANT = LINE != "3.5"
# The `v:path` syntax came in 4.1; on 4.0 (a parse error there) the same lookups are spelled out.
HAS_PATH_SYNTAX = HAS_VARIANT and LINE != "4.0"


def variant_paths(sql: str) -> str:
    """`doc:age` and `doc:age::long` as this line writes them: variant_get calls before 4.1."""
    if HAS_PATH_SYNTAX:
        return sql
    sql = re.sub(r"doc:(\w+)::(\w+)", r"variant_get(doc, '$.\1', '\2')", sql)
    return re.sub(r"doc:(\w+)", r"variant_get(doc, '$.\1')", sql)


needs_variant = pytest.mark.skipif(
    not HAS_VARIANT, reason="Spark 3.5 has no VARIANT (docs/versions.md)"
)
# The typed view over lookups that the shape tests read through.
TYPED = "bank_variant" if HAS_VARIANT else "bank_map"

BANK = '{"account_number":1,"age":31}\n{"account_number":2,"age":null}\n{"account_number":3}\n'

BANK_SCHEMA = [{"name": "age", "type": "integer"}, {"name": "account_number", "type": "long"}]


@pytest.fixture(scope="module")
def bank(spark, workdir: Path):
    """The bank documents on disk twice, as parquet: a VARIANT column and a MAP column, each with
    a view giving typed columns (views over lookups, as a service would define them)."""
    folder = workdir / "respond_bank"
    folder.mkdir(exist_ok=True)
    (folder / "bank.json").write_text(BANK)
    if HAS_VARIANT:
        (
            spark.read.option("singleVariantColumn", "doc")
            .json(str(folder / "bank.json"))
            .write.mode("overwrite")
            .parquet(str(folder / "variant"))
        )
        spark.sql(
            f"CREATE OR REPLACE TEMP VIEW bank_variant_raw AS SELECT * FROM parquet.`{folder / 'variant'}`"
        )
        spark.sql(
            "CREATE OR REPLACE TEMP VIEW bank_variant AS SELECT "
            "variant_get(doc, '$.account_number', 'long') AS account_number, "
            "variant_get(doc, '$.age', 'int') AS age FROM bank_variant_raw"
        )
    (
        spark.read.text(str(folder / "bank.json"))
        .selectExpr("from_json(value, 'map<string,bigint>') AS doc")
        .write.mode("overwrite")
        .parquet(str(folder / "map"))
    )
    spark.sql(
        f"CREATE OR REPLACE TEMP VIEW bank_map_raw AS SELECT * FROM parquet.`{folder / 'map'}`"
    )
    spark.sql(
        "CREATE OR REPLACE TEMP VIEW bank_map AS SELECT doc['account_number'] AS account_number, "
        "CAST(doc['age'] AS INT) AS age FROM bank_map_raw"
    )
    return folder


def jdbc(spark, sql: str, **kw: Any) -> dict[str, Any]:
    return colsem.respond(spark.sql(sql), format="jdbc", **kw)


def json_rows(spark, sql: str, **kw: Any) -> list[dict[str, Any]]:
    return colsem.respond(spark.sql(sql), format="json", **kw)["datarows"]


@pytest.mark.parametrize("view", [pytest.param("bank_variant", marks=needs_variant), "bank_map"])
def test_bank_example_jdbc(spark, bank, view: str) -> None:
    df = spark.sql(f"SELECT age, account_number FROM {view} ORDER BY account_number")
    assert colsem.respond(df) == {
        "schema": BANK_SCHEMA,
        "datarows": [[31, 1], [None, 2], [None, 3]],
        "total": 3,
        "size": 3,
        "status": 200,
    }
    assert colsem.respond_text(df) == (
        '{"schema":[{"name":"age","type":"integer"},{"name":"account_number","type":"long"}],'
        '"datarows":[[31,1],[null,2],[null,3]],"total":3,"size":3,"status":200}'
    )
    assert colsem.respond(df, types="opensearch")["schema"] == BANK_SCHEMA


@pytest.mark.parametrize("view", [pytest.param("bank_variant", marks=needs_variant), "bank_map"])
def test_bank_example_json_omits_missing(spark, bank, view: str) -> None:
    df = spark.sql(f"SELECT age, account_number FROM {view} ORDER BY account_number")
    assert colsem.respond(df, format="json") == {
        "schema": BANK_SCHEMA,
        "datarows": [
            {"age": 31, "account_number": 1},
            {"age": None, "account_number": 2},
            {"account_number": 3},
        ],
        "total": 3,
        "size": 3,
        "status": 200,
    }
    assert colsem.respond_text(df, format="json") == (
        '{"schema":[{"name":"age","type":"integer"},{"name":"account_number","type":"long"}],'
        '"datarows":[{"age":31,"account_number":1},{"age":null,"account_number":2},'
        '{"account_number":3}],"total":3,"size":3,"status":200}'
    )


@pytest.mark.parametrize("view", [pytest.param("bank_variant", marks=needs_variant), "bank_map"])
def test_missing_null_policy_keeps_every_key(spark, bank, view: str) -> None:
    rows = json_rows(
        spark, f"SELECT age, account_number FROM {view} ORDER BY account_number", missing="null"
    )
    assert rows == [
        {"age": 31, "account_number": 1},
        {"age": None, "account_number": 2},
        {"age": None, "account_number": 3},
    ]


@pytest.mark.parametrize(
    "sql",
    [
        pytest.param(
            "SELECT doc:age AS age FROM bank_variant_raw ORDER BY doc:account_number::long",
            marks=needs_variant,
        ),
        pytest.param(
            "SELECT variant_get(doc, '$.age', 'int') AS age FROM bank_variant_raw "
            "ORDER BY doc:account_number::long",
            marks=needs_variant,
        ),
        pytest.param(
            "SELECT try_variant_get(doc, '$.age', 'string') AS age FROM bank_variant_raw "
            "ORDER BY doc:account_number::long",
            marks=needs_variant,
        ),
        pytest.param(
            "SELECT CAST(doc:age AS INT) AS age FROM bank_variant_raw ORDER BY doc:account_number::long",
            marks=needs_variant,
        ),
        "SELECT doc['age'] AS age FROM bank_map_raw ORDER BY doc['account_number']",
        "SELECT element_at(doc, 'age') AS age FROM bank_map_raw ORDER BY doc['account_number']",
        "SELECT try_element_at(doc, 'age') AS age FROM bank_map_raw ORDER BY doc['account_number']",
        # through a subquery, a renaming projection, a filter and a limit
        "SELECT a AS age FROM (SELECT age AS a, account_number AS n FROM bank_map WHERE account_number > 0) s "
        "ORDER BY n LIMIT 10",
        # through a CTE and a window
        f"WITH b AS (SELECT * FROM {TYPED}) SELECT age FROM "
        "(SELECT age, account_number, row_number() OVER (ORDER BY account_number) AS r FROM b) ORDER BY r",
        # a CTE read twice, one reference under an aggregate
        "WITH b AS (SELECT doc['age'] AS age, doc['account_number'] AS n FROM bank_map_raw) "
        "SELECT age FROM b WHERE n <= (SELECT max(n) FROM b) ORDER BY n",
    ],
)
def test_lookup_shapes_mark_missing(spark, bank, sql: str) -> None:
    rows = json_rows(spark, variant_paths(sql))
    values = [r.get("age", "MISSING") for r in rows]
    assert values[0] in (31, "31", Decimal(31))
    assert values[1:] == [None, "MISSING"]


@needs_variant
def test_variant_null_is_null_and_variant_values_render_as_json(spark, bank) -> None:
    df = spark.sql(
        variant_paths(
            "SELECT doc:age AS age, doc FROM bank_variant_raw ORDER BY doc:account_number::long"
        )
    )
    out = colsem.respond(df, format="json")
    assert out["schema"] == [{"name": "age", "type": "variant"}, {"name": "doc", "type": "variant"}]
    assert out["datarows"] == [
        {"age": 31, "doc": {"account_number": 1, "age": 31}},
        {"age": None, "doc": {"account_number": 2, "age": None}},
        {"doc": {"account_number": 3}},
    ]


def test_dataframe_api_lookups(spark, bank) -> None:
    from pyspark.sql import functions as F

    raw = spark.table("bank_map_raw")
    df = raw.select(raw.doc["age"].alias("age"), raw.doc["account_number"].alias("n")).orderBy("n")
    assert colsem.respond(df, format="json")["datarows"] == [
        {"age": 31, "n": 1},
        {"age": None, "n": 2},
        {"n": 3},
    ]
    if not HAS_VARIANT:
        return
    v = spark.table("bank_variant_raw")
    df = v.select(
        F.variant_get(v.doc, "$.age", "int").alias("age"),
        F.variant_get(v.doc, "$.account_number", "long").alias("n"),
    ).orderBy("n")
    assert colsem.respond(df, format="json")["datarows"] == [
        {"age": 31, "n": 1},
        {"age": None, "n": 2},
        {"n": 3},
    ]


def test_outer_join_unmatched_side_is_null_not_missing(spark, bank) -> None:
    rows = json_rows(
        spark,
        "SELECT k.id, b.age FROM VALUES (1), (3), (9) AS k(id) "
        "LEFT JOIN bank_map b ON b.account_number = k.id ORDER BY k.id",
    )
    assert rows == [{"id": 1, "age": 31}, {"id": 3}, {"id": 9, "age": None}]


def test_union_all_reads_flags_by_position(spark, bank) -> None:
    rows = json_rows(
        spark,
        f"SELECT * FROM (SELECT age, account_number FROM {TYPED} "
        "UNION ALL SELECT s1, 10 + s1 FROM t1 WHERE s1 = 1 "
        "UNION ALL SELECT CAST(NULL AS INT), 20) ORDER BY account_number",
    )
    assert rows == [
        {"age": 31, "account_number": 1},
        {"age": None, "account_number": 2},
        {"account_number": 3},
        {"age": 1, "account_number": 11},
        {"age": None, "account_number": 20},
    ]
    # UNION (distinct) is an aggregate over the rows: no MISSING past it
    rows = json_rows(spark, "SELECT age FROM bank_map UNION SELECT 31 ORDER BY age")
    assert rows == [{"age": None}, {"age": 31}]


def test_values_past_an_aggregate_are_not_lookups(spark, bank) -> None:
    # max() of a lookup is an aggregate's value: NULL, never MISSING.
    rows = json_rows(
        spark,
        f"SELECT account_number, max(age) AS age FROM {TYPED} "
        "GROUP BY account_number ORDER BY account_number",
    )
    assert rows == [
        {"account_number": 1, "age": 31},
        {"account_number": 2, "age": None},
        {"account_number": 3, "age": None},
    ]
    rows = json_rows(spark, "SELECT DISTINCT age FROM bank_map ORDER BY age")
    assert rows == [{"age": None}, {"age": 31}]


def test_plain_columns_are_null_never_missing(spark) -> None:
    rows = json_rows(spark, "SELECT s1, s2 FROM t1 ORDER BY s1, s2")
    assert rows == [
        {"s1": 1, "s2": "a"},
        {"s1": 2, "s2": "b"},
        {"s1": 3, "s2": None},
        {"s1": 3, "s2": "c"},
    ]


def test_all_null_column_keeps_its_type(spark) -> None:
    out = jdbc(
        spark,
        "SELECT s1, CAST(NULL AS DECIMAL(5,2)) AS d, NULL AS n, "
        "CAST(NULL AS ARRAY<STRING>) AS a FROM t1 WHERE s1 < 3 ORDER BY s1",
    )
    assert out == {
        "schema": [
            {"name": "s1", "type": "integer"},
            {"name": "d", "type": "decimal(5,2)"},
            {"name": "n", "type": "void"},
            {"name": "a", "type": "array<string>"},
        ],
        "datarows": [[1, None, None, None], [2, None, None, None]],
        "total": 2,
        "size": 2,
        "status": 200,
    }
    out = jdbc(
        spark,
        "SELECT s1, CAST(NULL AS DECIMAL(5,2)) AS d, NULL AS n FROM t1 WHERE s1 = 1",
        types="opensearch",
    )
    assert out["schema"] == [
        {"name": "s1", "type": "integer"},
        {"name": "d", "type": "double"},
        {"name": "n", "type": "undefined"},
    ]


@pytest.mark.parametrize("format", ["jdbc", "json"])
def test_empty_result_keeps_full_schema(spark, format: str) -> None:
    df = spark.sql("SELECT * FROM t2 WHERE id > 100")
    assert colsem.respond(df, format=format) == {
        "schema": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "string"},
            {"name": "tags", "type": "array<string>"},
        ],
        "datarows": [],
        "total": 0,
        "size": 0,
        "status": 200,
    }
    assert colsem.respond_text(df, format=format) == (
        '{"schema":[{"name":"id","type":"integer"},{"name":"name","type":"string"},'
        '{"name":"tags","type":"array<string>"}],"datarows":[],"total":0,"size":0,"status":200}'
    )


def test_select_star_keeps_structs_nested(spark) -> None:
    spark.sql(
        "CREATE OR REPLACE TEMP VIEW people AS SELECT 1 AS id, "
        "named_struct('city', 'Oslo', 'geo', named_struct('lat', 59.9BD, 'lon', CAST(NULL AS DOUBLE))) AS address, "
        "array(named_struct('k', 'a')) AS tags"
    )
    out = colsem.respond(spark.sql("SELECT * FROM people"), format="json", types="opensearch")
    assert out["schema"] == [
        {"name": "id", "type": "integer"},
        {"name": "address", "type": "object"},
        {"name": "tags", "type": "nested"},
    ]
    assert out["datarows"] == [
        {
            "id": 1,
            "address": {"city": "Oslo", "geo": {"lat": Decimal("59.9"), "lon": None}},
            "tags": [{"k": "a"}],
        }
    ]


def test_names_are_the_plans_output_names(spark) -> None:
    out = jdbc(
        spark, "SELECT s1 + 1, upper(s2), count(*) FROM t1 GROUP BY s1, s2 ORDER BY 1, 2 LIMIT 1"
    )
    assert out["schema"] == [
        {"name": "(s1 + 1)", "type": "integer"},
        {"name": "upper(s2)", "type": "string"},
        {"name": "count(1)", "type": "long"},
    ]
    assert out["datarows"] == [[2, "A", 1]]


EVERY_TYPE = """SELECT true AS bool, CAST(-1 AS TINYINT) AS byte, CAST(300 AS SMALLINT) AS short,
 7 AS int, 9007199254740993L AS long, CAST(1.1 AS FLOAT) AS float, 0.1D AS double,
 CAST('NaN' AS DOUBLE) AS nan, CAST('-Infinity' AS FLOAT) AS ninf,
 12345678901234567890.123456789BD AS dec, CAST(0.0000001 AS DECIMAL(10,8)) AS small_dec,
 'a"b\\n\\u00e9' AS str, X'00ff10' AS bin, DATE'2024-02-29' AS date,
 TIMESTAMP'2024-07-01 12:34:56.123456' AS ts, TIMESTAMP_NTZ'2024-07-01 12:34:56.5' AS ts_ntz,
 INTERVAL '1 02:03:04' DAY TO SECOND AS dt_iv, INTERVAL '2-3' YEAR TO MONTH AS ym_iv,
 make_interval(0, 0, 0, 1) AS civ, array(1, NULL, 3) AS arr, map('k', 1.5BD, 'z', NULL) AS m,
 map(1, 'one') AS int_keys,
 named_struct('a', 1, 'b', CAST(NULL AS STRING), 'c', named_struct('d', array(DATE'2024-01-01'))) AS st,
 parse_json('{"x":[1,2.5,null,"s"],"y":{"z":true}}') AS var, NULL AS nothing"""

EVERY_TYPE_SCHEMA = [
    ("bool", "boolean", "boolean"),
    ("byte", "byte", "byte"),
    ("short", "short", "short"),
    ("int", "integer", "integer"),
    ("long", "long", "long"),
    ("float", "float", "float"),
    ("double", "double", "double"),
    ("nan", "double", "double"),
    ("ninf", "float", "float"),
    ("dec", "decimal(29,9)", "double"),
    ("small_dec", "decimal(10,8)", "double"),
    ("str", "string", "keyword"),
    ("bin", "binary", "binary"),
    ("date", "date", "date"),
    ("ts", "timestamp", "timestamp"),
    ("ts_ntz", "timestamp_ntz", "timestamp"),
    ("dt_iv", "interval day to second", "interval"),
    ("ym_iv", "interval year to month", "interval"),
    ("civ", "interval", "interval"),
    ("arr", "array<integer>", "nested"),
    ("m", "map<string,decimal(2,1)>", "object"),
    ("int_keys", "map<integer,string>", "object"),
    ("st", "struct<a:integer,b:string,c:struct<d:array<date>>>", "object"),
    ("var", "variant", "object"),
    ("nothing", "void", "undefined"),
]
VARIANT_ITEM = """parse_json('{"x":[1,2.5,null,"s"],"y":{"z":true}}') AS var, """

EVERY_TYPE_ROW = (
    '[true,-1,300,7,9007199254740993,1.1,0.1,"NaN","-Infinity",'
    '12345678901234567890.123456789,0.00000010,"a\\"b\\né","AP8Q","2024-02-29",'
    '"2024-07-01T12:34:56.123456-04:00","2024-07-01T12:34:56.500000",'
    '"INTERVAL \'1 02:03:04\' DAY TO SECOND","INTERVAL \'2-3\' YEAR TO MONTH","1 days",'
    '[1,null,3],{"k":1.5,"z":null},{"1":"one"},{"a":1,"b":null,"c":{"d":["2024-01-01"]}},'
    '{"x":[1,2.5,null,"s"],"y":{"z":true}},null]'
)


CALENDAR_INTERVAL_ITEM = "make_interval(0, 0, 0, 1) AS civ, "
if not HAS_VARIANT:
    # The same row without its VARIANT column, and without its CALENDAR INTERVAL one, which
    # PySpark 3.5 cannot read (test_calendar_interval_on_3_5_is_a_clear_error).
    EVERY_TYPE = EVERY_TYPE.replace(VARIANT_ITEM, "").replace(CALENDAR_INTERVAL_ITEM, "")
    EVERY_TYPE_SCHEMA = [t for t in EVERY_TYPE_SCHEMA if t[0] not in ("var", "civ")]
    EVERY_TYPE_ROW = (
        EVERY_TYPE_ROW.replace(',{"x":[1,2.5,null,"s"],"y":{"z":true}},null]', ",null]")
        .replace(',"1 days",', ",")
        # Spark 3.5 casts a decimal below 1E-6 to text in exponent form: same value
        .replace(",0.00000010,", ",1.0E-7,")
    )


@pytest.fixture(scope="module")
def new_york(spark):
    session = spark.newSession()
    session.conf.set("spark.sql.session.timeZone", "America/New_York")
    return session


def test_type_names_for_every_type(new_york) -> None:
    df = new_york.sql(EVERY_TYPE)
    assert colsem.respond(df, types="spark")["schema"] == [
        {"name": n, "type": s} for n, s, _ in EVERY_TYPE_SCHEMA
    ]
    assert colsem.respond(df, types="opensearch")["schema"] == [
        {"name": n, "type": o} for n, _, o in EVERY_TYPE_SCHEMA
    ]


def test_every_type_serializes_losslessly(new_york) -> None:
    df = new_york.sql(EVERY_TYPE)
    text = colsem.respond_text(df)
    assert text.split('"datarows":[', 1)[1] == EVERY_TYPE_ROW + '],"total":1,"size":1,"status":200}'
    row = colsem.respond(df)["datarows"][0]
    assert row[4] == 9007199254740993  # beyond a double's 53 bits: still exact
    assert row[9] == Decimal("12345678901234567890.123456789")
    assert str(row[10]) == "1.0E-7" and row[10] == Decimal("0.00000010")
    # JSON text is valid JSON (NaN and infinities as strings) and names/values line up in json
    obj = colsem.respond(df, format="json")["datarows"][0]
    assert obj["ts"] == "2024-07-01T12:34:56.123456-04:00"
    assert obj["bin"] == "AP8Q" and obj["st"]["c"] == {"d": ["2024-01-01"]}
    json.loads(text)


@pytest.mark.skipif(LINE != "3.5", reason="PySpark 4 reads CALENDAR INTERVAL schemas")
def test_calendar_interval_on_3_5_is_a_clear_error(spark) -> None:
    df = spark.sql("SELECT 1 AS n, make_interval(0, 0, 0, 1) AS civ")
    with pytest.raises(
        ColsemResponseError,
        match=r"On Spark 3.5 a CALENDAR INTERVAL column .* cast it "
        r"to STRING",
    ):
        colsem.respond(df)
    assert colsem.respond(spark.sql("SELECT CAST(make_interval(0, 0, 0, 1) AS STRING) AS civ")) == {
        "schema": [{"name": "civ", "type": "string"}],
        "datarows": [["1 days"]],
        "total": 1,
        "size": 1,
        "status": 200,
    }


def test_timestamps_follow_the_session_time_zone(spark) -> None:
    session = spark.newSession()
    session.conf.set("spark.sql.session.timeZone", "UTC")
    out = colsem.respond(session.sql("SELECT TIMESTAMP'2024-01-02 03:04:05' AS ts"))
    assert out["datarows"] == [["2024-01-02T03:04:05.000000Z"]]


def test_respond_iter_streams_pieces_and_counts_at_the_end(spark) -> None:
    df = spark.sql("SELECT id, id % 3 = 0 AS three FROM range(0, 2500, 1, 4)")
    pieces = list(colsem.respond_iter(df, fetch_size=1000))
    assert len(pieces) == 5  # head, 1000, 1000, 500, tail
    assert (
        pieces[0]
        == '{"schema":[{"name":"id","type":"long"},{"name":"three","type":"boolean"}],"datarows":['
    )
    assert pieces[1].startswith("[0,true],[1,false],") and pieces[1].count("[") == 1000
    assert pieces[2].startswith(",[1000,false],")
    assert pieces[-1] == '],"total":2500,"size":2500,"status":200}'
    doc = json.loads("".join(pieces))
    assert doc["datarows"] == [[i, i % 3 == 0] for i in range(2500)]
    assert colsem.respond(df, fetch_size=7) == colsem.respond(df)


def test_respond_iter_json_format_and_empty_stream(spark, bank) -> None:
    df = spark.sql(f"SELECT age, account_number FROM {TYPED} ORDER BY account_number")
    pieces = list(colsem.respond_iter(df, format="json", fetch_size=2))
    assert pieces[1:] == [
        '{"age":31,"account_number":1},{"age":null,"account_number":2}',
        ',{"account_number":3}',
        '],"total":3,"size":3,"status":200}',
    ]
    empty = list(colsem.respond_iter(spark.sql("SELECT s1 FROM t1 WHERE false")))
    assert empty == [
        '{"schema":[{"name":"s1","type":"integer"}],"datarows":[',
        '],"total":0,"size":0,"status":200}',
    ]


def test_bad_arguments_are_clear_errors(spark) -> None:
    df = spark.sql("SELECT s1, s1 FROM t1")
    with pytest.raises(ColsemResponseError, match=r"format='xml' is not one of jdbc, json"):
        colsem.respond(df, format="xml")
    with pytest.raises(ColsemResponseError, match=r"types='sql' is not one of spark, opensearch"):
        colsem.respond(df, types="sql")
    with pytest.raises(
        ColsemResponseError, match=r"fetch_size must be a positive number of rows, got 0"
    ):
        list(colsem.respond_iter(df, fetch_size=0))
    with pytest.raises(ColsemResponseError, match=r"needs distinct column names, but 's1' appear"):
        colsem.respond(df, format="json")
    # jdbc rows are positional: duplicate names are fine there
    assert jdbc(spark, "SELECT s1, s1 FROM t1 WHERE s1 = 1")["datarows"] == [[1, 1]]


def test_responses_leave_the_query_unchanged(spark, bank) -> None:
    """The present columns exist only in the response's own plan."""
    df = spark.sql("SELECT age, account_number FROM bank_map ORDER BY account_number")
    colsem.respond(df, format="json")
    assert df.columns == ["age", "account_number"]
    assert [tuple(r) for r in df.collect()] == [(31, 1), (None, 2), (None, 3)]


def test_spark_connect_server_without_colsem_json_missing_is_a_clear_error() -> None:
    """Over Spark Connect the rows render with DataFrame functions (jdbc works, and json with
    missing='null'); telling MISSING from NULL needs colsem_with_presence on the server, so where
    the server has no colsem, json with missing='omit' is a clear error saying what to do instead
    of a silent downgrade. A local Connect server without colsem on an ephemeral port (the server
    with colsem: tests/test_connect_server.py)."""
    from conftest import SESSION_PRELUDE, connect_server_package, result_of, run_python

    proc = run_python(
        SESSION_PRELUDE
        + f"server_package = {connect_server_package()!r}\n"
        + """
import colsem
builder = SparkSession.builder.remote("local[1]").config("spark.ui.enabled", "false")
if server_package:  # pyspark 3.5 ships no Connect server
    builder = builder.config("spark.jars.packages", server_package)
spark = builder.getOrCreate()
df = spark.sql("SELECT m['age'] AS age, m['n'] AS n FROM VALUES (map('n', 1, 'age', 31)), (map('n', 2)) AS t(m) ORDER BY n")
out = {"connect": type(df).__module__, "jdbc": colsem.respond_text(df),
       "json_null": colsem.respond(df, format="json", missing="null")["datarows"]}
try:
    colsem.respond(df, format="json")
except colsem.ColsemResponseError as exc:
    out["error"] = str(exc)
emit(**out)
spark.stop()
""",
        env={"SPARK_TESTING": "1", "COLSEM_AUTOREGISTER": "0"},
    )
    result = result_of(proc)
    assert result["connect"].startswith("pyspark.sql.connect")
    assert result["jdbc"] == (
        '{"schema":[{"name":"age","type":"integer"},{"name":"n","type":"integer"}],'
        '"datarows":[[31,1],[null,2]],"total":2,"size":2,"status":200}'
    )
    assert result["json_null"] == [{"age": 31, "n": 1}, {"age": None, "n": 2}]
    assert result["error"] == (
        "colsem is not active on the Spark Connect server (it has no colsem_with_presence table "
        "function), so format='json' cannot tell MISSING values from NULL ones. Start the server with "
        "colsem's jar and spark.sql.extensions=io.colsem.ColsemExtensions (colsem.connect_instructions() "
        "shows how), or pass missing='null' to report MISSING values as null."
    )


def test_classic_session_without_colsem_json_missing_is_a_clear_error() -> None:
    """Spark's own error for the missing table function becomes the ColsemResponseError saying
    what to do; any other analysis error stays as Spark raised it. (No JVM: a session stand-in.)"""
    from types import SimpleNamespace

    from colsem._respond import _with_presence
    from pyspark.errors import AnalysisException

    def session_raising(message: str) -> Any:
        def sql(query: str, args: Any = None, **kwargs: Any) -> Any:
            raise AnalysisException(message=message)

        return SimpleNamespace(sql=sql)

    missing = (
        "[UNRESOLVABLE_TABLE_VALUED_FUNCTION] Could not resolve `colsem_with_presence` to a "
        "table-valued function."
    )
    with pytest.raises(ColsemResponseError) as info:
        with _with_presence(SimpleNamespace(sparkSession=session_raising(missing))):
            pass
    assert str(info.value) == (
        "colsem is not active in this session (it has no colsem_with_presence table function), so "
        "format='json' cannot tell MISSING values from NULL ones. Create the session with "
        "colsem.configure(SparkSession.builder), or pass missing='null' to report MISSING values as null."
    )
    other = "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column `x` cannot be resolved."
    with pytest.raises(AnalysisException, match=r"UNRESOLVED_COLUMN"):
        with _with_presence(SimpleNamespace(sparkSession=session_raising(other))):
            pass
