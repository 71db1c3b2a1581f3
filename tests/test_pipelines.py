"""colsem in Spark Declarative Pipelines (Spark 4.1 and later): real `spark-pipelines run`
processes over real project folders, as a user runs them after `pip install colsem`. Each run
starts its own Spark Connect server; the tables it writes stay as parquet files in the project's
spark-warehouse, which the test reads back. docs/pipelines.md shows the same project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import colsem
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import local_connect_port, subprocess_env
from golden import running_line

pytestmark = [
    pytest.mark.pipelines,
    pytest.mark.skipif(
        running_line() in ("3.5", "4.0"), reason="Declarative Pipelines start with Spark 4.1"
    ),
]

BIN = Path(sys.executable).parent
# A catalog that outlives a run (Hive's, in the project folder): with the default in-memory one a
# second run finds the first run's table folders and fails with LOCATION_ALREADY_EXISTS.
PERSISTENT_CATALOG = ("--conf", "spark.sql.catalogImplementation=hive")


@pytest.fixture(autouse=True)
def one_local_server_at_a_time() -> Iterator[None]:
    with local_connect_port():
        yield


def project(folder: Path, configuration: dict[str, str], files: dict[str, str]) -> Path:
    """A pipeline project: spark-pipeline.yml and its transformations."""
    folder.mkdir(parents=True, exist_ok=True)
    conf = "".join(f"  {k}: {v}\n" for k, v in configuration.items())
    (folder / "spark-pipeline.yml").write_text(
        f"name: colsem_test\nstorage: file://{folder}/pipeline-storage\n"
        + (f"configuration:\n{conf}" if conf else "")
        + "libraries:\n  - glob:\n      include: transformations/**\n"
    )
    for name, text in files.items():
        path = folder / "transformations" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


def run_pipeline(
    folder: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / "spark-pipelines"), "run", *args],
        cwd=folder,
        # Without the tests' spark-defaults.conf (JIT flags): with spark.driver.defaultJavaOptions
        # set there, the server PySpark starts for the run loses `--jars` and `--conf` (4.3).
        env=subprocess_env(
            {"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(env or {})}, long_running=True
        ),
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def succeeded(proc: subprocess.CompletedProcess) -> bool:
    return proc.returncode == 0 and "Run is COMPLETED" in proc.stdout


def output(proc: subprocess.CompletedProcess) -> str:
    """What a failed run said: the pipeline's events (stdout) and the tail of Spark's log."""
    return f"exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"


def table(folder: Path, name: str) -> tuple[list[str], list[tuple]]:
    """A table the run wrote: its columns and sorted rows, from its parquet files; for a streaming
    table, only the files its sink's _spark_metadata log commits (what Spark reads), so a file a
    failed or skipped batch left behind does not count."""
    location = folder / "spark-warehouse" / name
    log = location / "_spark_metadata"
    if log.is_dir():
        batches = sorted(log.glob("[0-9]*"), key=lambda f: int(f.name.split(".")[0]))
        assert not any(f.name.endswith(".compact") for f in batches), "a compacted log: read it"
        entries = [json.loads(line) for f in batches for line in f.read_text().splitlines()[1:]]
        files = [e["path"].removeprefix("file://") for e in entries if e["action"] == "add"]
        data = pa.concat_tables([pq.read_table(f) for f in files])
    else:
        data = pq.read_table(location)
    rows = sorted(tuple(r.values()) for r in data.to_pylist())
    return data.column_names, rows


STREAMING_TABLES = ("raw", "raw_star", "appended", "appended_sql")


def catalog_schemas(folder: Path) -> dict[str, list[str]]:
    """The streaming tables' columns as the project's catalog (Hive's, in the project folder) has
    them after a run: what a later run or another job reads, not only what the files hold. A table
    that gained an all-NULL hidden column would show it here."""
    from conftest import SESSION_PRELUDE, result_of, run_python

    script = SESSION_PRELUDE + textwrap.dedent(
        f"""
        os.chdir({str(folder)!r})
        spark = local_builder().enableHiveSupport().getOrCreate()
        emit(**{{t: spark.table(t).columns for t in {STREAMING_TABLES!r}}})
        """
    )
    return result_of(run_python(script))


EVENTS_PY = """\
    from pyspark import pipelines as dp
    from pyspark.sql import SparkSession, functions as F

    spark = SparkSession.active()


    @dp.materialized_view(table_properties={"colsem.hidden_columns": "_ingest_ts"})
    def events():
        return spark.range(3).select(
            "id",
            F.col("id").cast("string").alias("v"),
            F.lit("2026-11-27").cast("timestamp").alias("_ingest_ts"),
        )


    @dp.materialized_view
    def orders():
        return spark.range(6).select((F.col("id") % 2).alias("k"), (F.col("id") * 10).alias("amount"))


    @dp.table(table_properties={"colsem.hidden_columns": "_ingest_ts"})
    def raw():
        return spark.readStream.schema("id BIGINT, v STRING, _ingest_ts TIMESTAMP").parquet(
            "RAW_FILES"
        )


    dp.create_streaming_table("appended")


    @dp.append_flow(target="appended")
    def append_raw():
        return spark.readStream.table("raw").select("*")


    @dp.temporary_view
    def orders_plus():
        return spark.read.table("orders").selectExpr("k AS a", "a + 1 AS b", "amount")


    @dp.materialized_view
    def orders_plus_mv():
        return spark.read.table("orders_plus").groupBy("a", "b").count()
"""

DATASETS_SQL = """\
    CREATE MATERIALIZED VIEW events_star AS SELECT * FROM events;

    CREATE MATERIALIZED VIEW counts AS
    SELECT k, count(*), sum(amount), upper(CAST(k AS STRING)) FROM orders GROUP BY k;

    -- Lateral aliases native Spark refuses: a window over an aggregate's alias, GROUP BY aliases.
    CREATE TEMPORARY VIEW ranked AS
    SELECT k AS key, sum(amount) AS total, rank() OVER (ORDER BY total DESC) AS r
    FROM orders GROUP BY k;

    CREATE MATERIALIZED VIEW ranked_mv AS SELECT * FROM ranked;

    CREATE MATERIALIZED VIEW grouped AS
    SELECT k AS a, a + 1 AS b, count(*) AS c FROM orders GROUP BY a, b;

    CREATE STREAMING TABLE raw_star AS SELECT * FROM STREAM(raw);

    CREATE STREAMING TABLE appended_sql;

    CREATE FLOW append_raw_sql AS INSERT INTO appended_sql BY NAME SELECT * FROM STREAM(raw);

    CREATE MATERIALIZED VIEW tagged_sql TBLPROPERTIES ('colsem.hidden_columns' = 'secret')
    AS SELECT id, v, id * 100 AS secret FROM events;

    CREATE MATERIALIZED VIEW tagged_sql_star AS SELECT * FROM tagged_sql;
"""


def write_raw_files(folder: Path, start: int, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    ids = list(range(start, start + count))
    pq.write_table(
        pa.table(
            {
                "id": pa.array(ids, pa.int64()),
                "v": pa.array([str(i) for i in ids]),
                "_ingest_ts": pa.array([1_700_000_000_000_000] * count, pa.timestamp("us")),
            }
        ),
        folder / f"part-{start}.parquet",
    )


@pytest.fixture(scope="module")
def full_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pipeline")
    raw = folder / "raw-files"
    write_raw_files(raw, 0, 2)
    return project(
        folder / "project",
        {
            "spark.colsem.star.exclude": "TAGGED",
            "spark.colsem.naming.dialect": "postgres",
            "spark.colsem.invariants": "error",
        },
        {
            "datasets.py": EVENTS_PY.replace("RAW_FILES", str(raw)),
            "datasets.sql": DATASETS_SQL,
        },
    )


@pytest.fixture(scope="module")
def full_project_run(full_project: Path) -> Path:
    """The project's first run, which both tests below read (one `spark-pipelines run`)."""
    with local_connect_port():
        first = run_pipeline(full_project, *PERSISTENT_CATALOG)
    assert succeeded(first), output(first)
    return full_project


def test_every_feature_in_one_pipeline_run(full_project_run: Path):
    """Star, dialect and lateral aliases in SQL and Python datasets of one pipeline: materialized
    views, streaming tables, a temporary view and an append flow, settings from the spec. The
    graph's schemas and the flows' data agree (a mismatch fails the run)."""
    full_project = full_project_run
    assert table(full_project, "events_star") == (["id", "v"], [(0, "0"), (1, "1"), (2, "2")])
    assert table(full_project, "counts") == (
        ["k", "count", "sum", "upper"],
        [(0, 3, 60, "0"), (1, 3, 90, "1")],
    )
    assert table(full_project, "ranked_mv") == (["key", "total", "r"], [(0, 60, 2), (1, 90, 1)])
    assert table(full_project, "grouped") == (["a", "b", "c"], [(0, 1, 3), (1, 2, 3)])
    assert table(full_project, "raw_star") == (["id", "v"], [(0, "0"), (1, "1")])
    # Two append flows, Python and SQL, each writing every row of `raw` but its hidden column. Each
    # has its own target: two streams into one parquet table share its _spark_metadata log, and
    # whichever commits batch 0 second is skipped or orphaned (Spark's file sink, not colsem).
    for appended in ("appended", "appended_sql"):
        assert table(full_project, appended) == (["id", "v"], [(0, "0"), (1, "1")])
    assert table(full_project, "orders_plus_mv") == (["a", "b", "count"], [(0, 1, 3), (1, 2, 3)])
    assert table(full_project, "tagged_sql_star") == (["id", "v"], [(0, "0"), (1, "1"), (2, "2")])
    # The dataset itself keeps its hidden column.
    assert table(full_project, "events")[0] == ["id", "v", "_ingest_ts"]


@pytest.mark.long
def test_the_same_pipeline_again_then_full_refresh(full_project_run: Path):
    """Two more runs of the project above: incremental, then `--full-refresh-all` after its
    declaration changed. After each, the streaming tables' catalog schemas: a hidden column only
    where no `*` left it out."""
    full_project = full_project_run
    schemas = {
        "raw": ["id", "v", "_ingest_ts"],
        "raw_star": ["id", "v"],
        "appended": ["id", "v"],
        "appended_sql": ["id", "v"],
    }
    assert catalog_schemas(full_project) == schemas
    # An incremental run reads only the new file into the streaming tables.
    write_raw_files(full_project.parent / "raw-files", 2, 1)
    second = run_pipeline(full_project, *PERSISTENT_CATALOG)
    assert succeeded(second), output(second)
    assert table(full_project, "raw_star") == (["id", "v"], [(0, "0"), (1, "1"), (2, "2")])
    for appended in ("appended", "appended_sql"):
        assert table(full_project, appended)[1] == [(i, str(i)) for i in (0, 1, 2)]

    assert catalog_schemas(full_project) == schemas

    # The declaration changes (`raw` hides `v` too), then a full refresh: every table reading
    # `raw` through `*` loses `v`, in its files and in the catalog.
    datasets = full_project / "transformations" / "datasets.py"
    declared = '@dp.table(table_properties={"colsem.hidden_columns": "_ingest_ts"})'
    assert declared in datasets.read_text()
    datasets.write_text(datasets.read_text().replace(declared, declared.replace("_ts", "_ts,v")))
    refreshed = run_pipeline(full_project, *PERSISTENT_CATALOG, "--full-refresh-all")
    assert succeeded(refreshed), output(refreshed)
    assert table(full_project, "raw_star") == (["id"], [(0,), (1,), (2,)])
    assert table(full_project, "counts")[0] == ["k", "count", "sum", "upper"]
    assert catalog_schemas(full_project) == {
        "raw": ["id", "v", "_ingest_ts"],
        "raw_star": ["id"],
        "appended": ["id"],
        "appended_sql": ["id"],
    }


def test_set_in_a_sql_file_applies_to_its_flows(tmp_path: Path):
    folder = project(
        tmp_path,
        {},
        {
            "orders.py": EVENTS_PY.split("@dp.table")[0],
            "counts.sql": """\
                SET spark.colsem.naming.dialect = postgres;
                CREATE MATERIALIZED VIEW counts AS
                SELECT k, count(*), max(amount) FROM orders GROUP BY k;
                """,
        },
    )
    proc = run_pipeline(folder)
    assert succeeded(proc), output(proc)
    assert table(folder, "counts") == (["k", "count", "max"], [(0, 3, 40), (1, 3, 50)])


def test_a_bad_colsem_setting_fails_the_run_naming_the_key(tmp_path: Path):
    folder = project(
        tmp_path,
        {"spark.colsem.naming.dialect": "postgress"},
        {"counts.sql": "CREATE MATERIALIZED VIEW one AS SELECT 1 AS x;\n"},
    )
    proc = run_pipeline(folder)
    assert proc.returncode != 0
    output = proc.stdout + proc.stderr
    assert "COLSEM_INVALID_CONF_VALUE" in output
    assert "spark.colsem.naming.dialect" in output


def test_jar_only_way_in(tmp_path: Path):
    """`spark-pipelines run --jars ... --conf spark.sql.extensions=...` with automatic
    registration off: the jar alone gives the pipeline's server colsem."""
    folder = project(
        tmp_path,
        {"spark.colsem.naming.dialect": "postgres"},
        {
            "grouped.sql": """\
                CREATE MATERIALIZED VIEW grouped AS
                SELECT id % 2 AS a, a + 1 AS b, count(*) FROM range(4) GROUP BY a, b;
                """
        },
    )
    proc = run_pipeline(
        folder,
        "--jars",
        colsem.jar_path(),
        "--conf",
        f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
        env={"COLSEM_AUTOREGISTER": "0"},
    )
    assert succeeded(proc), output(proc)
    assert table(folder, "grouped") == (["a", "b", "count"], [(0, 1, 2), (1, 2, 2)])


def test_docs_pipeline_project_writes_what_the_doc_says(tmp_path: Path):
    """docs/pipelines.md's project, its files as the doc shows them, run as written: each table
    has the columns the doc lists."""
    import re

    from conftest import ROOT

    section = (ROOT / "docs" / "pipelines.md").read_text().split("## A declarative pipeline")[1]
    blocks = dict(re.findall(r"`([\w/.-]+)`:\n\n```\w+\n(.*?)```", section, re.S))
    folder = tmp_path / "shop"
    for name, text in blocks.items():
        if name == "spark-pipeline.yml":
            text = text.replace("file:///tmp/shop/", f"file://{folder}/")
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    assert sorted(blocks) == [
        "spark-pipeline.yml",
        "transformations/reports.sql",
        "transformations/sources.py",
    ]
    proc = run_pipeline(folder)
    assert succeeded(proc), output(proc)
    listed = re.search(r"in that folder writes:\n\n```text\n(.*?)```", section, re.S).group(1)
    written = "".join(
        f"{name}: {', '.join(table(folder, name)[0])}\n" for name in ("events_star", "by_k")
    )
    assert written == listed
    assert table(folder, "by_k")[1] == [(0, 0, 2, 2, 1), (1, 10, 1, 1, 2)]
