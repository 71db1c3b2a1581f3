"""Star strategies on real Delta Lake and Apache Iceberg tables (`make formats`: a venv with the
formats line's pyspark, `delta-spark` from PyPI, the Delta and Iceberg jars from Maven Central).

One Spark session with colsem, Delta's and Iceberg's extensions (Delta's catalog as the session
catalog, Iceberg's Hadoop catalog as `ice`) runs every case in a subprocess: each write path of a
`*`-selected DataFrame or query back into its own table, whose hidden column `_ts` must keep its
values or the write must fail with the table unchanged; and what `*` and `colsem_columns` show on
reads. The write table in docs/star.md is these results (`COLSEM_DOCS_REGENERATE=1` rewrites it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT, run_python
from docs_sections import check_generated_section, run_section_example
from golden import running_line, version_property

FORMATS_LINE = version_property("formats.line")
PACKAGES = ",".join(
    [version_property("formats.delta.jar"), version_property("formats.iceberg.jar")]
)

# `make formats` runs two pytest processes with --dist loadgroup: each group below shares one
# module fixture (one session script), so the groups' scripts run side by side.
pytestmark = [
    pytest.mark.formats,
    pytest.mark.xdist_group("formats"),
    pytest.mark.skipif(
        running_line() != FORMATS_LINE,
        reason=f"Delta and Iceberg publish for Spark {FORMATS_LINE}: `make formats` runs these tests",
    ),
]

# What every script here starts with (run_session_script puts it first): a session with colsem,
# Delta's and Iceberg's extensions, Delta's catalog as the session catalog and Iceberg's Hadoop
# catalog as `ice` (arguments: the work folder, the packages).
SESSION = r"""
import json, sys, traceback
from pathlib import Path
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.types import StructType, StructField, IntegerType, StringType, LongType
import colsem

work, packages = Path(sys.argv[1]), sys.argv[2]
builder = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
           .config("spark.sql.shuffle.partitions", "2")
           .config("spark.sql.warehouse.dir", str(work / "warehouse"))
           .config("spark.jars.packages", packages)
           .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,"
                   "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
           .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
           .config("spark.sql.catalog.ice", "org.apache.iceberg.spark.SparkCatalog")
           .config("spark.sql.catalog.ice.type", "hadoop")
           .config("spark.sql.catalog.ice.warehouse", str(work / "iceberg")))
colsem.configure(builder)
spark = builder.getOrCreate()
"""

SCRIPT = r'''
spark.sql("CREATE NAMESPACE IF NOT EXISTS ice.db")
spark.conf.set("spark.colsem.star.exclude", "TAGGED")

ROWS = [(1, "a", 10), (2, "b", 20)]
counter = iter(range(1000))

def schema(metadata):
    ts = StructField("_ts", LongType(), True, {"colsem.hidden": True} if metadata else {})
    return StructType([StructField("id", IntegerType()), StructField("msg", StringType()), ts])

def make(fmt, tag):
    n = next(counter)
    df = spark.createDataFrame(ROWS, schema(tag == "field metadata"))
    if fmt == "delta":
        name, path = f"d_{n}", str(work / "delta" / f"d_{n}")
        df.write.format("delta").option("path", path).saveAsTable(name)
    else:
        name, path = f"ice.db.i_{n}", None
        df.writeTo(name).using("iceberg").create()
    if tag == "table property":
        spark.sql(f"ALTER TABLE {name} SET TBLPROPERTIES ('colsem.hidden_columns' = '_ts')")
    return name, path

def contents(name):
    return sorted((tuple(r) for r in spark.sql(f"SELECT id, msg, _ts FROM {name}").collect()), key=repr)

def error_class(e):
    """The error class; for an error whose class Spark cannot look up (Delta's MERGE errors on
    Spark 4.1), the JVM exception's class name."""
    for attr in ("getCondition", "getErrorClass"):
        try:
            value = getattr(e, attr)()
            if value:
                return value
        except Exception:
            pass
    java = getattr(e, "_origin", None) or getattr(e, "java_exception", None)
    try:
        return "exception " + java.getClass().getName()
    except Exception:
        return "exception " + type(e).__name__

def merge(t, select, source_id, actions):
    """MERGE INTO t from a query of t itself, target.id matched against `source_id`."""
    return spark.sql(f"MERGE INTO {t} AS target USING ({select} FROM {t}) AS source "
                     f"ON target.id = {source_id} {actions}")

WRITES = {
    "saveAsTable append": ("append", lambda fmt, t, p: spark.table(t).select("*").write.format(fmt).mode("append").saveAsTable(t)),
    "writeTo append": ("append", lambda fmt, t, p: spark.table(t).select("*").writeTo(t).append()),
    "writeTo overwrite": ("overwrite", lambda fmt, t, p: spark.table(t).select("*").writeTo(t).overwrite(F.lit(True))),
    "writeTo overwritePartitions": ("overwrite", lambda fmt, t, p: spark.table(t).select("*").writeTo(t).overwritePartitions()),
    "insertInto": ("append", lambda fmt, t, p: spark.table(t).select("*").write.insertInto(t)),
    "save(path) append": ("append", lambda fmt, t, p: spark.table(t).select("*").write.format(fmt).mode("append").save(p)),
    "INSERT INTO t SELECT * FROM t": ("append", lambda fmt, t, p: spark.sql(f"INSERT INTO {t} SELECT * FROM {t}")),
    "INSERT BY NAME from a view of *": ("append", lambda fmt, t, p: (
        spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW v AS SELECT * FROM {t}"),
        spark.sql(f"INSERT INTO {t} BY NAME SELECT * FROM v"))),
    "MERGE UPDATE SET * from SELECT *": ("merge", lambda fmt, t, p: merge(
        t, "SELECT *", "source.id", "WHEN MATCHED THEN UPDATE SET *")),
    # every source row is new (ids never match), so INSERT * would copy each row
    "MERGE INSERT * from SELECT *": ("append", lambda fmt, t, p: merge(
        t, "SELECT *", "source.id + 100", "WHEN NOT MATCHED THEN INSERT *")),
    "MERGE from SELECT * (UPDATE SET *, INSERT *)": ("merge", lambda fmt, t, p: merge(
        t, "SELECT *", "source.id", "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")),
    # schema evolution lets INSERT * fill a column the source lacks with NULL
    "MERGE INSERT * from SELECT *, schema evolution": ("append", lambda fmt, t, p: merge_with_schema_evolution(
        fmt, f"INTO {t} AS target USING (SELECT * FROM {t}) AS source ON target.id = source.id + 100 "
        "WHEN NOT MATCHED THEN INSERT *")),
    "DataFrame mergeInto insertAll of select('*')": ("append", lambda fmt, t, p: (
        spark.table(t).select("*").alias("source").mergeInto(t, F.expr(f"{t}.id = source.id + 100"))
        .whenNotMatched().insertAll().merge())),
    # Delta's own merge API resolves the MERGE itself; with schema evolution insertAll() fills a
    # column the source lacks with NULL
    "DeltaTable.merge insertAll of select('*'), schema evolution": ("append", lambda fmt, t, p: delta_merge(
        t, spark.table(t).select("*"), "target.id = source.id + 100", lambda m: m.whenNotMatchedInsertAll())),
    "DeltaTable.merge insertAll of select('*', '_ts'), schema evolution": ("append", lambda fmt, t, p: delta_merge(
        t, spark.table(t).select("*", "_ts"), "target.id = source.id + 100", lambda m: m.whenNotMatchedInsertAll())),
    "DeltaTable.merge updateAll of select('*'), schema evolution": ("merge", lambda fmt, t, p: delta_merge(
        t, spark.table(t).select("*"), "target.id = source.id", lambda m: m.whenMatchedUpdateAll())),
    # the source names the hidden column: target row 2 takes source row 1, source row 2 is inserted
    "MERGE from SELECT *, _ts (UPDATE SET *, INSERT *)": ("shifted merge", lambda fmt, t, p: merge(
        t, "SELECT *, _ts", "source.id + 1", "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")),
    "MERGE from SELECT * with explicit UPDATE SET": ("upper msg", lambda fmt, t, p: merge(
        t, "SELECT *", "source.id", "WHEN MATCHED THEN UPDATE SET msg = upper(source.msg)")),
    # every source row is new; the explicit INSERT leaves _ts to its default (NULL) on purpose
    "MERGE from SELECT * with explicit INSERT (id, msg)": ("insert without _ts", lambda fmt, t, p: merge(
        t, "SELECT *", "source.id + 100",
        "WHEN NOT MATCHED THEN INSERT (id, msg) VALUES (source.id, source.msg)")),
    "all columns named": ("append", lambda fmt, t, p: spark.table(t).select("id", "msg", "_ts").writeTo(t).append()),
    # The formats' own commands, which build their plans (and stars) while they run: every
    # column, the hidden one included, rewritten as it was.
    "UPDATE t SET msg = upper(msg)": ("upper msg", lambda fmt, t, p: spark.sql(f"UPDATE {t} SET msg = upper(msg)")),
    "DELETE FROM t WHERE id = 2": ("delete 2", lambda fmt, t, p: spark.sql(f"DELETE FROM {t} WHERE id = 2")),
    "OPTIMIZE t": ("merge", lambda fmt, t, p: spark.sql(f"OPTIMIZE {t}")),
    "CALL rewrite_data_files": ("merge", lambda fmt, t, p: spark.sql(
        f"CALL ice.system.rewrite_data_files(table => '{t.removeprefix('ice.')}', "
        "options => map('rewrite-all', 'true'))")),
    "merge-on-read: MERGE from SELECT * (UPDATE SET *, INSERT *)": ("merge", lambda fmt, t, p: (
        merge_on_read(t), merge(t, "SELECT *", "source.id",
                                "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"))),
    "merge-on-read: MERGE from SELECT *, _ts (UPDATE SET *, INSERT *)": ("shifted merge", lambda fmt, t, p: (
        merge_on_read(t), merge(t, "SELECT *, _ts", "source.id + 1",
                                "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"))),
    "merge-on-read: UPDATE t SET msg = upper(msg)": ("upper msg", lambda fmt, t, p: (
        merge_on_read(t), spark.sql(f"UPDATE {t} SET msg = upper(msg)"))),
    "merge-on-read: DELETE FROM t WHERE id = 2": ("delete 2", lambda fmt, t, p: (
        merge_on_read(t), spark.sql(f"DELETE FROM {t} WHERE id = 2"))),
}
FORMATS = [("delta", "table property"), ("delta", "field metadata"), ("iceberg", "table property")]

def merge_on_read(t):
    """Iceberg's row-level commands write delete files instead of rewriting data files."""
    spark.sql(f"ALTER TABLE {t} SET TBLPROPERTIES ('write.merge.mode' = 'merge-on-read', "
              "'write.update.mode' = 'merge-on-read', 'write.delete.mode' = 'merge-on-read')")

ICEBERG_ONLY = {w for w in WRITES if w.startswith("merge-on-read")} | {"CALL rewrite_data_files"}

DELTA_ONLY = {"save(path) append", "DeltaTable.merge insertAll of select('*'), schema evolution",
              "DeltaTable.merge insertAll of select('*', '_ts'), schema evolution",
              "DeltaTable.merge updateAll of select('*'), schema evolution", "OPTIMIZE t"}

def delta_merge(t, source, condition, actions):
    from delta.tables import DeltaTable
    spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")
    try:
        actions(DeltaTable.forName(spark, t).alias("target").merge(source.alias("source"), condition)).execute()
    finally:
        spark.conf.unset("spark.databricks.delta.schema.autoMerge.enabled")

def merge_with_schema_evolution(fmt, merge):
    if fmt == "iceberg":
        return spark.sql("MERGE WITH SCHEMA EVOLUTION " + merge)
    spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")  # Delta's switch
    try:
        return spark.sql("MERGE " + merge)
    finally:
        spark.conf.unset("spark.databricks.delta.schema.autoMerge.enabled")

result = {"writes": [], "reads": []}
for fmt, tag in FORMATS:
    for write, (kind, run) in WRITES.items():
        if (write in DELTA_ONLY and fmt != "delta") or (write in ICEBERG_ONLY and fmt != "iceberg"):
            continue
        table, path = make(fmt, tag)
        before = contents(table)
        entry = {"format": fmt, "tag": tag, "write": write}
        try:
            run(fmt, table, path)
        except Exception as e:
            entry["error"] = error_class(e)
            try:
                entry["message"] = str(e).splitlines()[0]
            except Exception:
                pass
        after = contents(table)
        expected = {"append": sorted(before * 2, key=repr), "overwrite": before, "merge": before,
                    "shifted merge": sorted([ROWS[0], ROWS[0], ROWS[1]], key=repr),
                    "upper msg": [(i, m.upper(), ts) for i, m, ts in before],
                    "delete 2": [r for r in before if r[0] != 2],
                    "insert without _ts": sorted(before + [(i, m, None) for i, m, _ in before], key=repr)}[kind]
        entry["outcome"] = ("unchanged" if after == before and "error" in entry else
                            "kept" if after == expected else
                            "LOST" if any(r[2] is None for r in after) else "other")
        entry["after"] = [list(r) for r in after]
        result["writes"].append(entry)

    table, path = make(fmt, tag)
    reads = {
        "SELECT *": lambda: spark.sql(f"SELECT * FROM {table}").columns,
        "table().select('*')": lambda: spark.table(table).select("*").columns,
        "colsem_columns hidden": lambda: [r.name for r in spark.sql(
            f"SELECT * FROM colsem_columns('{table}')").collect() if r.hidden],
    }
    if fmt == "delta":
        spark.sql(f"ALTER TABLE {table} SET TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')")
        spark.sql(f"INSERT INTO {table} VALUES (3, 'c', 30)")
        inserted = spark.sql(f"DESCRIBE HISTORY {table} LIMIT 1").first().version
        reads["table_changes"] = lambda: spark.sql(f"SELECT * FROM table_changes('{table}', {inserted})").columns
        reads["readChangeFeed"] = lambda: (spark.read.option("readChangeFeed", "true")
                                           .option("startingVersion", inserted).table(table).select("*").columns)
        reads["VERSION AS OF"] = lambda: spark.sql(f"SELECT * FROM {table} VERSION AS OF 1").columns
        reads["versionAsOf"] = lambda: spark.read.option("versionAsOf", 1).table(table).select("*").columns
        reads["path"] = lambda: spark.sql(f"SELECT * FROM delta.`{path}`").columns
        reads["load(path)"] = lambda: spark.read.format("delta").load(path).select("*").columns
        reads["colsem_columns by path"] = lambda: [r.name for r in spark.sql(
            f"SELECT * FROM colsem_columns('delta.`{path}`')").collect() if r.hidden]
    for read, run in reads.items():
        try:
            value = run()
        except Exception as e:
            value = "error: " + error_class(e)
        result["reads"].append({"format": fmt, "tag": tag, "read": read, "columns": value})

print("RESULT " + json.dumps(result), flush=True)
'''


def run_session_script(script: str, work: Path, long_running: bool = False) -> dict:
    """SESSION, then `script`, run in `work` in a new process; its RESULT."""
    return run_session_script_logging(script, work, long_running)[0]


def run_session_script_logging(
    script: str, work: Path, long_running: bool = False
) -> tuple[dict, str]:
    """SESSION, then `script`, run in `work` in a new process; its RESULT and its log (stderr)."""
    work.mkdir(exist_ok=True)
    proc = run_python(
        SESSION + script,
        env={"COLSEM_AUTOREGISTER": "0"},
        args=[str(work), PACKAGES],
        # A guard against a hung script, not a speed check: the main script runs every write and
        # read case in one session, about six minutes alone on a slow 2-core machine, and CI runs
        # another group's script beside it.
        timeout=1800,
        long_running=long_running,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-6000:]
    return json.loads(lines[-1][len("RESULT ") :]), proc.stderr


@pytest.fixture(scope="module")
def formats(workdir: Path) -> dict[str, list[dict]]:
    return run_session_script(SCRIPT, workdir / "formats", long_running=True)


REFUSED = "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"
COMBINATIONS = [
    ("delta", "table property"),
    ("delta", "field metadata"),
    ("iceberg", "table property"),
]
# Per write path: "kept" (every written row keeps its hidden values) or the error class the write
# fails with, the table unchanged; a dict where the formats differ.
WRITES: dict[str, object] = {
    "saveAsTable append": REFUSED,
    "writeTo append": REFUSED,
    "writeTo overwrite": REFUSED,
    "writeTo overwritePartitions": REFUSED,
    # by position: too few columns is each format's own arity error
    "insertInto": {
        "delta": "DELTA_INSERT_COLUMN_ARITY_MISMATCH",
        "iceberg": "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
    },
    "save(path) append": {"delta": REFUSED},
    "INSERT INTO t SELECT * FROM t": "kept",
    "INSERT BY NAME from a view of *": REFUSED,
    # UPDATE SET * / INSERT * from a source a * left the hidden column out of: the formats refuse
    # them with errors that do not say why (Delta on Spark 4.1 an INTERNAL_ERROR) and, with schema
    # evolution, fill the column with NULL; colsem refuses them before either happens
    "MERGE UPDATE SET * from SELECT *": REFUSED,
    "MERGE INSERT * from SELECT *": REFUSED,
    "MERGE from SELECT * (UPDATE SET *, INSERT *)": REFUSED,
    "MERGE INSERT * from SELECT *, schema evolution": REFUSED,
    "DataFrame mergeInto insertAll of select('*')": REFUSED,
    "DeltaTable.merge insertAll of select('*'), schema evolution": {"delta": REFUSED},
    "DeltaTable.merge insertAll of select('*', '_ts'), schema evolution": {"delta": "kept"},
    "DeltaTable.merge updateAll of select('*'), schema evolution": {"delta": "kept"},
    "MERGE from SELECT *, _ts (UPDATE SET *, INSERT *)": "kept",
    "MERGE from SELECT * with explicit UPDATE SET": "kept",
    "MERGE from SELECT * with explicit INSERT (id, msg)": "kept",
    "all columns named": "kept",
    "UPDATE t SET msg = upper(msg)": "kept",
    "DELETE FROM t WHERE id = 2": "kept",
    "OPTIMIZE t": {"delta": "kept"},
    "CALL rewrite_data_files": {"iceberg": "kept"},
    "merge-on-read: MERGE from SELECT * (UPDATE SET *, INSERT *)": {"iceberg": REFUSED},
    "merge-on-read: MERGE from SELECT *, _ts (UPDATE SET *, INSERT *)": {"iceberg": "kept"},
    "merge-on-read: UPDATE t SET msg = upper(msg)": {"iceberg": "kept"},
    "merge-on-read: DELETE FROM t WHERE id = 2": {"iceberg": "kept"},
}


def expected_write(write: str, fmt: str) -> str:
    outcome = WRITES[write]
    return outcome[fmt] if isinstance(outcome, dict) else outcome  # type: ignore[index]


WRITE_CASES = [
    (fmt, tag, write)
    for fmt, tag in COMBINATIONS
    for write in WRITES
    if not isinstance(WRITES[write], dict) or fmt in WRITES[write]
]  # type: ignore[operator]


def _entry(results: dict[str, list[dict]], kind: str, fmt: str, tag: str, name: str) -> dict:
    key = "write" if kind == "writes" else "read"
    found = [e for e in results[kind] if (e["format"], e["tag"], e[key]) == (fmt, tag, name)]
    assert len(found) == 1, (fmt, tag, name)
    return found[0]


@pytest.mark.parametrize("fmt, tag, write", WRITE_CASES, ids=[" / ".join(c) for c in WRITE_CASES])
def test_write_keeps_hidden_values_or_fails_with_the_table_unchanged(formats, fmt, tag, write):
    entry = _entry(formats, "writes", fmt, tag, write)
    expected = expected_write(write, fmt)
    if expected == "kept":
        assert "error" not in entry and entry["outcome"] == "kept", entry
    else:
        assert (entry.get("error"), entry["outcome"]) == (expected, "unchanged"), entry


# What * shows of the table (columns id, msg, _ts; _ts hidden), and what colsem_columns marks hidden.
CHANGE_COLUMNS = ["_change_type", "_commit_version", "_commit_timestamp"]  # Delta's change feed
READS = {
    ("delta", "table property"): {
        "SELECT *": ["id", "msg"],
        "table().select('*')": ["id", "msg"],
        "colsem_columns hidden": ["_ts"],
        "VERSION AS OF": ["id", "msg"],
        "versionAsOf": ["id", "msg"],
        # a read by path: the session catalog reads delta.`<path>` with the log's properties
        "path": ["id", "msg"],
        "load(path)": ["id", "msg"],
        "colsem_columns by path": ["_ts"],
        "table_changes": ["id", "msg"] + CHANGE_COLUMNS,
        "readChangeFeed": ["id", "msg"] + CHANGE_COLUMNS,
    },
    ("delta", "field metadata"): {
        "SELECT *": ["id", "msg"],
        "table().select('*')": ["id", "msg"],
        "colsem_columns hidden": ["_ts"],
        "VERSION AS OF": ["id", "msg"],
        "versionAsOf": ["id", "msg"],
        "path": ["id", "msg"],
        "load(path)": ["id", "msg"],
        "colsem_columns by path": ["_ts"],
        "table_changes": ["id", "msg"] + CHANGE_COLUMNS,
        "readChangeFeed": ["id", "msg"] + CHANGE_COLUMNS,
    },
    ("iceberg", "table property"): {
        "SELECT *": ["id", "msg"],
        "table().select('*')": ["id", "msg"],
        "colsem_columns hidden": ["_ts"],
    },
}
READ_CASES = [(fmt, tag, read) for (fmt, tag), reads in READS.items() for read in reads]


@pytest.mark.parametrize("fmt, tag, read", READ_CASES, ids=[" / ".join(c) for c in READ_CASES])
def test_star_hides_tagged_columns_of_format_tables(formats, fmt, tag, read):
    assert _entry(formats, "reads", fmt, tag, read)["columns"] == READS[(fmt, tag)][read]


DOCS = ROOT / "docs" / "star.md"
BEGIN, END = "<!-- formats table: tests/test_table_formats.py -->", "<!-- end of formats table -->"


def formats_table(results: dict[str, list[dict]]) -> str:
    """docs/star.md's table: one row per write path, one column per format and tag."""
    header = (
        "| write of a `*`-selected DataFrame or query | "
        + " | ".join(
            f"{'Delta' if fmt == 'delta' else 'Iceberg'}, {tag}" for fmt, tag in COMBINATIONS
        )
        + " |"
    )
    rows = [header, "|---" * (len(COMBINATIONS) + 1) + "|"]
    for write in WRITES:
        cells = []
        for fmt, tag in COMBINATIONS:
            found = [
                e
                for e in results["writes"]
                if (e["format"], e["tag"], e["write"]) == (fmt, tag, write)
            ]
            if not found:
                cells.append("n/a")
            elif found[0]["outcome"] == "kept":
                cells.append("kept")
            else:
                cells.append(
                    f"refused: `{found[0].get('error')}`"
                    if found[0]["outcome"] == "unchanged"
                    else f"**{found[0]['outcome']}**"
                )
        rows.append(f"| `{write}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def test_docs_table_is_these_results(formats):
    check_generated_section(
        DOCS, BEGIN, END, formats_table(formats), "run `make formats PYTEST_ARGS=...`"
    )


def test_the_error_says_which_write_and_which_columns(formats):
    entry = _entry(formats, "writes", "iceberg", "table property", "writeTo append")
    assert re.fullmatch(
        r"\[COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN\] A DataFrame write into ice\.db\.i_\d+ would write DEFAULT "
        r"or NULL into its hidden column\(s\) `_ts`: the data written does not provide them .*"
        r"Select them explicitly \(SELECT \*, _ts FROM \.\.\., or df\.select\(\"\*\", \.\.\.\)\), .*"
        r"INSERT INTO ice\.db\.i_\d+ \(id, msg\) .* SQLSTATE: 42000.*",
        entry["message"],
    ), entry["message"]


MERGE_ADVICE = (
    r"UPDATE SET \* and INSERT \* set every column of the target from the source's column of the same name\. "
    r"Name them in the source's select list \(USING \(SELECT \*, _ts FROM \.\.\.\) AS source\), or spell the "
    r"actions out \(UPDATE SET id = source\.id, msg = source\.msg; INSERT \(id, msg\) VALUES \(source\.id, "
    r"source\.msg\)\): an UPDATE then keeps their values, an INSERT fills them with their defaults\."
)


@pytest.mark.parametrize("fmt, tag", COMBINATIONS, ids=[" / ".join(c) for c in COMBINATIONS])
@pytest.mark.parametrize(
    "write, action",
    [
        ("MERGE UPDATE SET * from SELECT *", "UPDATE SET \\*"),
        ("MERGE INSERT * from SELECT *", "INSERT \\*"),
        ("MERGE from SELECT * (UPDATE SET *, INSERT *)", "UPDATE SET \\* and INSERT \\*"),
    ],
)
def test_a_merge_error_says_that_star_left_the_column_out(formats, fmt, tag, write, action):
    entry = _entry(formats, "writes", fmt, tag, write)
    table = r"ice\.db\.i_\d+" if fmt == "iceberg" else r"spark_catalog\.default\.d_\d+"
    assert re.fullmatch(
        rf"\[COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN\] MERGE {action} into {table} would write DEFAULT or NULL into "
        r"its hidden column\(s\) `_ts`: the data written does not provide them \(in this session SELECT \* "
        r"leaves hidden columns out, .*\)\. " + MERGE_ADVICE + r" SQLSTATE: 42000.*",
        entry["message"],
    ), entry["message"]


@pytest.mark.xdist_group("example")
def test_getting_started_example_runs_as_written(workdir: Path):
    """docs/getting-started.md's Delta and Iceberg example, run as a user would (in an empty folder,
    where its Spark warehouse goes)."""
    proc = run_section_example(
        ROOT / "docs" / "getting-started.md",
        "## With Delta Lake and Apache Iceberg",
        workdir / "getting_started_formats",
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.splitlines() == [
        "['id', 'msg']",
        "[COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN] A DataFrame write into spark_catalog.default",
    ], proc.stdout


def test_delta_merge_api_error_says_the_star_left_the_columns_out(formats):
    entry = _entry(
        formats,
        "writes",
        "delta",
        "table property",
        "DeltaTable.merge insertAll of select('*'), schema evolution",
    )
    assert re.fullmatch(
        r"\[COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN\] Delta's merge API \(DeltaTable\.merge\) into "
        r"spark_catalog\.default\.d_\d+ would write DEFAULT or NULL into its hidden column\(s\) `_ts`: .*"
        r"Its source went through a \* that left them out, and an insert of the merge would fill them with NULL "
        r"\(insertAll\(\) with schema evolution, or an insert\(\.\.\.\) that does not set them\)\. "
        r"Select them in the source \(df\.select\(\"\*\", \"_ts\"\)\), or set them in insert\(\.\.\.\) explicitly\..*"
        r"SQLSTATE: 42000.*",
        entry["message"],
    ), entry["message"]


DELTA_MERGE_SCRIPT = r'''
import re
from delta.tables import DeltaTable

jvm = spark._jvm
shape = jvm.io.colsem.star.DeltaMergeShape.OfDelta()

spark.sql("CREATE TABLE target (id INT, msg STRING, extra STRING) USING delta")
source = spark.createDataFrame([(1, "a")], "id INT, msg STRING")
# The DataFrame execute() returns is planned from the MergeIntoCommand Delta built and ran.
command = (DeltaTable.forName(spark, "target").alias("t").merge(source.alias("s"), "t.id = s.id")
           .whenMatchedUpdate(set={"msg": "s.msg"})
           .whenNotMatchedInsert(values={"id": "s.id", "msg": "upper(s.msg)"})
           .execute()._jdf.queryExecution().analyzed())

def class_name(obj):
    return obj.getClass().getName()

def is_a(obj, java_class):
    return jvm.java.lang.Class.forName(java_class).isInstance(obj)

def items(seq):
    return [seq.apply(i) for i in range(seq.size())]

def names(plan):
    return [a.name() for a in items(plan.output())]

def class_names(objs):
    return [class_name(o) for o in objs]

found = {}

def check(fact, read, show=None):
    """Reads one fact of DeltaMergeShape (a class or field name) off the command: records what the
    command shows for it (`show` of the value, or what stopped the read) and returns the value."""
    name = getattr(shape, fact)()
    try:
        value = read(name)
    except Exception as e:
        found[fact] = f"{name} not read: " + (str(e).splitlines() or [type(e).__name__])[0]
        return []
    found[fact] = show(value) if show else value
    return value

check("commandClass", lambda name: "ok" if class_name(command) == name else class_name(command))
for fact in ("sourceField", "targetField"):
    check(fact, lambda field: names(getattr(command, field)()))
clauses = check("notMatchedClausesField", lambda field: items(getattr(command, field)()), class_names)
inserts = check("insertClauseClass", lambda name: [c for c in clauses if class_name(c) == name],
                lambda matching: "ok" if len(matching) == 1 else class_names(clauses))
actions = check("insertActionsField", lambda field: items(getattr(inserts[0], field)()), class_names)
check("actionClass", lambda name: "ok" if actions and all(class_name(a) == name for a in actions)
      else class_names(actions))
check("actionColumnField",
      lambda field: [[str(p) for p in items(getattr(a, field)())] for a in actions])
check("actionValueField",
      lambda field: [getattr(a, field)().sql() if is_a(getattr(a, field)(),
                     "org.apache.spark.sql.catalyst.expressions.Expression") else "not an expression"
                     for a in actions])

merge = shape.read(command)
read = None
if merge.isDefined():
    m = merge.get()
    read = {"source": names(m.source()), "target": names(m.target()),
            "inserts": [[[[str(p) for p in items(a._1())], a._2().sql()] for a in items(clause)]
                        for clause in items(m.inserts())]}

# While columns are hidden: tables whose _ts is hidden, Delta's schema evolution on (insertAll()
# fills a column the source lacks with NULL).
def hidden_table(name):
    spark.sql(f"CREATE TABLE {name} (id INT, msg STRING, _ts BIGINT) USING delta "
              "TBLPROPERTIES ('colsem.hidden_columns' = '_ts')")
    spark.sql(f"INSERT INTO {name} VALUES (1, 'a', 10), (2, 'b', 20)")

def rows(name):
    return sorted([list(r) for r in spark.sql(f"SELECT id, msg, _ts FROM {name}").collect()], key=repr)

def outcome(run):
    """The run's outcome: "ran", or the error class it failed with."""
    try:
        run()
        return "ran"
    except Exception as e:
        found = re.search(r"\[([A-Z_.]+)\]", str(e))
        return found.group(1) if found else type(e).__name__

for table in ("unread", "shared"):
    hidden_table(table)
spark.conf.set("spark.colsem.star.exclude", "TAGGED")
spark.conf.set("spark.databricks.delta.schema.autoMerge.enabled", "true")

# A command colsem refuses, taken from a run with hiding off: its source went through a * while
# hiding was on, and its insertAll() fills _ts with NULL.
starred = spark.table("unread").select("*")
spark.conf.unset("spark.colsem.star.exclude")
refused = (DeltaTable.forName(spark, "unread").alias("target")
           .merge(starred.alias("source"), "target.id = source.id + 100")
           .whenNotMatchedInsertAll().execute()._jdf.queryExecution().analyzed())
spark.conf.set("spark.colsem.star.exclude", "TAGGED")
jvm.org.apache.spark.sql.SparkSession.setActiveSession(spark._jsparkSession)

# The shape as released, then with each fact in turn naming what this Delta does not have (a
# renamed class or field): the check refuses the command, then reads nothing and lets it run.
FACTS = ["commandClass", "sourceField", "targetField", "notMatchedClausesField", "insertClauseClass",
         "insertActionsField", "actionClass", "actionColumnField", "actionValueField"]
def moved(fact):
    return jvm.io.colsem.star.DeltaMergeShape(
        *[getattr(shape, f)() + ("Moved" if f == fact else "") for f in FACTS])
unread = {}
for fact, tried in [("none", shape)] + [(fact, moved(fact)) for fact in FACTS]:
    rule = jvm.io.colsem.star.ProtectHiddenColumnsOnDeltaMerge(tried)
    unread[fact] = {"read": tried.read(refused).isDefined(),
                    "check": outcome(lambda: rule.apply(refused))}

# One DataFrame merged first through the analyzer (mergeInto), then with Delta's merge API: the
# first leaves no mark on it that would let the second run unchecked.
shared = spark.table("shared").select("*")
merge_into = outcome(lambda: shared.alias("source").mergeInto("shared", F.expr("shared.id = source.id"))
                     .whenMatched().update({"msg": F.upper(F.col("source.msg"))}).merge())
delta_merge = outcome(lambda: DeltaTable.forName(spark, "shared").alias("target")
                      .merge(shared.alias("source"), "target.id = source.id + 100")
                      .whenNotMatchedInsertAll().execute())

print("RESULT " + json.dumps({
    "found": found, "read": read, "unread": unread,
    "shared": {"mergeInto": merge_into, "DeltaTable.merge": delta_merge, "rows": rows("shared")},
}), flush=True)
'''


@pytest.fixture(scope="module")
def delta_merge_run(workdir: Path) -> tuple[dict, str]:
    return run_session_script_logging(DELTA_MERGE_SCRIPT, workdir / "delta_merge_shape")


@pytest.fixture(scope="module")
def delta_merge_shape(delta_merge_run: tuple[dict, str]) -> dict:
    return delta_merge_run[0]


@pytest.mark.xdist_group("delta-merge")
def test_delta_merge_command_has_the_shape_colsem_reads(delta_merge_shape):
    """Every fact of DeltaMergeShape (the Delta classes and fields ProtectHiddenColumnsOnDeltaMerge
    reads by name) against the MergeIntoCommand of a real DeltaTable.merge, on the Delta release
    `make formats` installs: a release that moves one fails here naming it, rather than leaving
    Delta's merge API unchecked."""
    expected = {
        "commandClass": "ok",
        "sourceField": ["id", "msg"],
        "targetField": ["id", "msg", "extra"],
        "notMatchedClausesField": [
            "org.apache.spark.sql.catalyst.plans.logical.DeltaMergeIntoNotMatchedInsertClause"
        ],
        "insertClauseClass": "ok",
        "insertActionsField": ["org.apache.spark.sql.catalyst.plans.logical.DeltaMergeAction"] * 3,
        "actionClass": "ok",
        # A column the insert does not set gets an action too: a NULL, which the rule looks for.
        "actionColumnField": [["id"], ["msg"], ["extra"]],
        "actionValueField": ["s.id", "upper(s.msg)", "CAST(NULL AS STRING) AS extra"],
    }
    found = delta_merge_shape["found"]
    moved = {fact: found[fact] for fact in expected if found[fact] != expected[fact]}
    assert moved == {}, (
        f"{version_property('formats.delta.jar')} moved what DeltaMergeShape names "
        f"(fact: what the command has instead): {moved}"
    )


@pytest.mark.xdist_group("delta-merge")
def test_delta_merge_command_reads_as_its_source_target_and_inserts(delta_merge_shape):
    assert delta_merge_shape["read"] == {
        "source": ["id", "msg"],
        "target": ["id", "msg", "extra"],
        "inserts": [
            [
                [["id"], "s.id"],
                [["msg"], "upper(s.msg)"],
                [["extra"], "CAST(NULL AS STRING) AS extra"],
            ]
        ],
    }


DELTA_MERGE_FACTS = [
    "commandClass",
    "sourceField",
    "targetField",
    "notMatchedClausesField",
    "insertClauseClass",
    "insertActionsField",
    "actionClass",
    "actionColumnField",
    "actionValueField",
]
UNREAD_WARNING = (
    "colsem cannot read this Delta release's org.apache.spark.sql.delta.commands.MergeIntoCommand"
)


@pytest.mark.xdist_group("delta-merge")
def test_a_delta_merge_colsem_cannot_read_runs_unchecked_with_a_warning(delta_merge_run):
    """DeltaMergeShape with each fact in turn naming a class or field this Delta does not have (as
    a Delta release that renamed it would), on a real MergeIntoCommand that the shape as released
    refuses: nothing is read, the merge runs, and the driver log says why, once per merge."""
    result, log = delta_merge_run
    assert result["unread"] == {
        "none": {"read": True, "check": "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN"},
        **{fact: {"read": False, "check": "ran"} for fact in DELTA_MERGE_FACTS},
    }
    assert log.count(UNREAD_WARNING) == len(DELTA_MERGE_FACTS), log[-4000:]


@pytest.mark.xdist_group("delta-merge")
def test_a_dataframe_merged_with_merge_into_is_still_checked_by_delta_merge(delta_merge_shape):
    """`mergeInto` marks nothing on the DataFrame it merges: the same DataFrame's insertAll()
    through DeltaTable.merge, which would fill `_ts` with NULL, is refused."""
    assert delta_merge_shape["shared"] == {
        "mergeInto": "ran",
        "DeltaTable.merge": "COLSEM_HIDDEN_COLUMNS_NOT_WRITTEN",
        "rows": [[1, "A", 10], [2, "B", 20]],
    }


# Streams of Delta and Iceberg tables (docs/pipelines.md): `*` over a stream of a tagged table
# leaves out what `*` over the table does, from SQL and from select("*"); a stream's write into a
# tagged table (Delta's and Iceberg's streaming sinks fill missing columns with NULL) is refused
# unless it provides the hidden column, checked by reading the table back.
STREAM_SCRIPT = r"""
spark.sql("CREATE NAMESPACE IF NOT EXISTS ice.db")
ROWS = [(1, "a", 10), (2, "b", 20)]
HIDE = "TBLPROPERTIES ('colsem.hidden_columns' = '_ts')"
spark.sql(f"CREATE TABLE d_src (id INT, msg STRING, _ts BIGINT) USING delta LOCATION '{work / 'd_src'}' {HIDE}")
spark.sql(f"CREATE TABLE d_dst (id INT, msg STRING, _ts BIGINT) USING delta {HIDE}")
spark.sql(f"CREATE TABLE d_all (id INT, msg STRING, _ts BIGINT) USING delta {HIDE}")
spark.sql(f"CREATE TABLE ice.db.src (id INT, msg STRING, _ts BIGINT) USING iceberg {HIDE}")
spark.sql(f"CREATE TABLE ice.db.dst (id INT, msg STRING, _ts BIGINT) USING iceberg {HIDE}")
for t in ("d_src", "ice.db.src"):
    spark.createDataFrame(ROWS, "id INT, msg STRING, _ts BIGINT").writeTo(t).append()
spark.conf.set("spark.colsem.star.exclude", "TAGGED")
out = {"batch": spark.sql("SELECT * FROM d_src").columns}
sources = {
    "delta readStream.table": spark.readStream.table("d_src"),
    "delta format(delta).load(path)": spark.readStream.format("delta").load(str(work / "d_src")),
    "iceberg readStream.table": spark.readStream.table("ice.db.src"),
}
for label, stream in sources.items():
    stream.createOrReplaceTempView("s")
    out[label] = {"sql": spark.sql("SELECT * FROM s").columns, "select": stream.select("*").columns}

def run(frame, name):
    q = (frame.writeStream.format("memory").queryName(name)
         .option("checkpointLocation", str(work / "ck" / name)).start())
    q.processAllAvailable(); q.stop()
    return sorted(tuple(r) for r in spark.table(name).collect())

out["delta rows"] = run(spark.readStream.table("d_src").select("*"), "d_rows")
out["iceberg rows"] = run(spark.readStream.table("ice.db.src").select("*"), "i_rows")

def write(frame, target, name):
    fmt = "iceberg" if target.startswith("ice.") else "delta"
    try:
        q = (frame.writeStream.format(fmt).option("checkpointLocation", str(work / "ck" / name))
             .toTable(target))
        q.processAllAvailable(); q.stop()
        return "written"
    except Exception as e:
        return getattr(e, "getCondition", lambda: type(e).__name__)()

out["delta sink of *"] = write(spark.readStream.table("d_src").select("*"), "d_dst", "w1")
out["iceberg sink of *"] = write(spark.readStream.table("ice.db.src").select("*"), "ice.db.dst", "w2")
out["delta sink naming _ts"] = write(spark.readStream.table("d_src").select("*", "_ts"), "d_all", "w3")
out["contents"] = {t: sorted(tuple(r) for r in spark.sql(f"SELECT id, msg, _ts FROM {t}").collect())
                   for t in ("d_dst", "ice.db.dst", "d_all")}

# The operator matrix (tests/star_matrix.py) over Delta and Iceberg tables and streams of them.
sys.path.insert(0, TESTS)
import star_matrix
for fmt, using, prefix in (("delta", "USING delta", ""), ("iceberg", "USING iceberg", "ice.db.")):
    events, dims = star_matrix.create_tables(spark, using, prefix)
    spark.conf.unset("spark.colsem.star.exclude")
    vanilla = star_matrix.matrix(spark, events, dims)
    spark.conf.set("spark.colsem.star.exclude", "TAGGED")
    out[f"matrix {fmt}"] = {"vanilla": vanilla, "hiding": star_matrix.matrix(spark, events, dims)}
print("RESULT " + json.dumps(out))
"""


@pytest.mark.xdist_group("streams")
def test_streams_of_delta_and_iceberg_tables(workdir: Path):
    """`*` over streams of Delta and Iceberg tables, their sinks, and the operator matrix
    (tests/star_matrix.py): every operator over either format shows what it shows over parquet."""
    import star_matrix

    script = STREAM_SCRIPT.replace("TESTS", repr(str(Path(__file__).parent)))
    out = run_session_script(script, workdir / "streams", long_running=True)
    for fmt in ("delta", "iceberg"):
        vanilla, hiding = out.pop(f"matrix {fmt}").values()
        assert len(vanilla) == len(hiding) > 100, fmt
        expected = star_matrix.expected(vanilla, spark_35=False)
        assert {c: hiding[c] for c in expected if hiding[c] != expected[c]} == {}, fmt
    visible = ["id", "msg"]
    assert out["batch"] == visible
    for label in (
        "delta readStream.table",
        "delta format(delta).load(path)",
        "iceberg readStream.table",
    ):
        assert out[label] == {"sql": visible, "select": visible}, label
    assert out["delta rows"] == out["iceberg rows"] == [[1, "a"], [2, "b"]]
    assert out["delta sink of *"] == out["iceberg sink of *"] == REFUSED
    assert out["delta sink naming _ts"] == "written"
    assert out["contents"] == {
        "d_dst": [],
        "ice.db.dst": [],
        "d_all": [[1, "a", 10], [2, "b", 20]],
    }


# What Spark reports of a stream into a Delta or an Iceberg table (tests/stream_progress.py), and of
# a batch write into one, under each invariants setting against colsem off altogether: the row
# check sits below the write node, where Spark reads a sink's output rows and a write's metrics.
PROGRESS_SCRIPT = r"""
sys.path.insert(0, TESTS)
from stream_progress import SETTINGS, observe

spark.sql("CREATE NAMESPACE IF NOT EXISTS ice.db")
source = str(work / "progress_source")
spark.range(3).selectExpr("id AS k", "id * 10 AS v").coalesce(1).write.parquet(source)

def delta_table(name):
    spark.sql(f"CREATE TABLE {name} (k BIGINT, w BIGINT) USING delta")
    return name

def iceberg_table(name):
    spark.sql(f"CREATE TABLE ice.db.{name} (k BIGINT, w BIGINT) USING iceberg")
    return f"ice.db.{name}"

SINKS = {
    "delta path": lambda w, n: w.format("delta").start(str(work / "delta_sinks" / n)),
    "delta toTable": lambda w, n: w.format("delta").toTable(delta_table(n)),
    "iceberg toTable": lambda w, n: w.toTable(iceberg_table(n)),
}
out = {"streams": {}, "batches": {}}
for sink, start in SINKS.items():
    for setting in SETTINGS:
        session = spark.newSession()
        name = f"progress_{sink.replace(' ', '_')}_{setting}".lower()
        writer = (session.readStream.schema("k BIGINT, v BIGINT").parquet(source)
                  .selectExpr("k", "v + 1 AS w").writeStream
                  .option("checkpointLocation", str(work / "ck" / name)))
        out["streams"][f"{sink} / {setting}"] = observe(session, setting, lambda: start(writer, name))

# Each batch write's counting metrics, as the SQL tab shows them (Spark's SQL status store): per
# execution the write ran, its metrics of kind "sum" (rows, files, parts), by their shown names.
status = spark._jsparkSession.sharedState().statusStore()
bus = spark.sparkContext._jsc.sc().listenerBus()

def executions():
    return [status.executionsList().apply(i) for i in range(status.executionsList().size())]

def counts(write):
    bus.waitUntilEmpty()
    seen = {e.executionId() for e in executions()}
    write()
    bus.waitUntilEmpty()
    found = []
    for e in executions():
        if e.executionId() in seen:
            continue
        values, entries = {}, status.executionMetrics(e.executionId()).iterator()
        while entries.hasNext():
            entry = entries.next()
            values[entry._1()] = entry._2()
        metrics = [e.metrics().apply(i) for i in range(e.metrics().size())]
        found.append(sorted([m.name(), values.get(m.accumulatorId())]
                            for m in metrics if m.metricType() == "sum"))
    return found

BATCHES = {
    "delta save(path)": lambda s, n: s.range(5).selectExpr("id AS k", "id AS w").write
        .format("delta").save(str(work / "delta_batches" / n)),
    "delta saveAsTable": lambda s, n: s.range(5).selectExpr("id AS k", "id AS w").write
        .format("delta").saveAsTable(n),
    "delta INSERT": lambda s, n: s.sql(f"INSERT INTO {delta_table(n)} SELECT id, id FROM range(4)"),
    "iceberg writeTo append": lambda s, n: s.range(5).selectExpr("id AS k", "id AS w")
        .writeTo(iceberg_table(n)).append(),
    "iceberg INSERT": lambda s, n: s.sql(f"INSERT INTO {iceberg_table(n)} SELECT id, id FROM range(4)"),
}
for write, run in BATCHES.items():
    for setting, (key, value) in SETTINGS.items():
        session = spark.newSession()
        session.conf.set(key, value)
        name = f"batch_{write.replace(' ', '_').replace('(', '').replace(')', '')}_{setting}".lower()
        out["batches"][f"{write} / {setting}"] = counts(lambda: run(session, name))
print("RESULT " + json.dumps(out), flush=True)
"""

PROGRESS_SINKS = ["delta path", "delta toTable", "iceberg toTable"]
# The first micro-batch's `sink.numOutputRows` as vanilla Spark reports it: Iceberg's sink is a DSv2
# streaming write (its rows); Delta's is a sink of the older API (-1).
PROGRESS_SINK_ROWS = {"delta path": -1, "delta toTable": -1, "iceberg toTable": 3}
BATCH_WRITES = [
    "delta save(path)",
    "delta saveAsTable",
    "delta INSERT",
    "iceberg writeTo append",
    "iceberg INSERT",
]


@pytest.fixture(scope="module")
def progress_runs(workdir: Path) -> dict:
    from conftest import TESTS

    script = f"TESTS = {str(TESTS)!r}\n" + PROGRESS_SCRIPT
    return run_session_script(script, workdir / "progress", long_running=True)


@pytest.mark.xdist_group("progress")
@pytest.mark.parametrize("sink", PROGRESS_SINKS)
def test_delta_and_iceberg_stream_progress_is_vanillas_under_every_invariants_setting(
    progress_runs, sink
):
    """recentProgress and the listener's events of a stream into a Delta or Iceberg table under
    invariants off, warn and error equal vanilla's (colsem off altogether)."""
    runs = progress_runs["streams"]
    vanilla = runs[f"{sink} / vanilla"]
    assert vanilla["progress"][0][:3] == [0, 3, PROGRESS_SINK_ROWS[sink]], vanilla
    assert vanilla["events"] == vanilla["progress"]
    for setting in ("off", "warn", "error"):
        assert runs[f"{sink} / {setting}"] == vanilla, setting


@pytest.mark.xdist_group("progress")
@pytest.mark.parametrize("write", BATCH_WRITES)
def test_delta_and_iceberg_write_metrics_are_vanillas_under_every_invariants_setting(
    progress_runs, write
):
    """A batch write's counting metrics (rows, files, parts: what the SQL tab shows), execution by
    execution, under invariants off, warn and error equal vanilla's."""
    runs = progress_runs["batches"]
    vanilla = runs[f"{write} / vanilla"]
    rows = 4 if "INSERT" in write else 5
    assert any(["number of output rows", str(rows)] in metrics for metrics in vanilla), vanilla
    for setting in ("off", "warn", "error"):
        assert runs[f"{write} / {setting}"] == vanilla, setting
