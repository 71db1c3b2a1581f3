"""colsem on a real multi-executor cluster: `local-cluster[2,1,1024]` is a driver and two executor
JVMs (pip's pyspark has no sbin/ scripts for a standalone cluster). The application is started
the way a cluster user who read only "add the jar to the driver" would: `--driver-class-path` and
`spark.sql.extensions`, no `--jars`. Lateral aliases, star strategies, the invariants' row check
(colsem code in tasks) and responses run over data spread across both executors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import colsem
import pytest
from conftest import ROOT, SESSION_PRELUDE, result_of, run_python, subprocess_env

pytestmark = [pytest.mark.cluster, pytest.mark.long]

CLUSTER_SCRIPT = (
    SESSION_PRELUDE
    + """
import time
import colsem
spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
deadline = time.monotonic() + 120
while sc._jsc.sc().getExecutorIds().size() < 2 and time.monotonic() < deadline:
    time.sleep(0.5)
out = {"executors": sc._jsc.sc().getExecutorIds().size(), "status": status_of(spark)}
spark.sql("SET spark.sql.shuffle.partitions=4")
spark.sql(f"CREATE TABLE sales (id INT, region STRING, amount INT, attrs MAP<STRING, STRING>, "
          f"_ingest_ts STRING) USING parquet LOCATION '{sys.argv[1]}' "
          f"TBLPROPERTIES ('colsem.hidden_columns' = '_ingest_ts')")
rows = [(i, ["north", "south", "east"][i % 3], i * 10,
         {"channel": "web"} if i % 4 == 0 else ({"channel": None} if i % 4 == 1 else {}), f"t{i}")
        for i in range(1, 13)]
(spark.createDataFrame(rows, "id INT, region STRING, amount INT, attrs MAP<STRING, STRING>, _ingest_ts STRING")
 .repartition(4).write.insertInto("sales"))
out["files"] = len([f for f in os.listdir(sys.argv[1]) if f.endswith(".parquet")])

def rows_of(sql):
    return [list(r) for r in spark.sql(sql).collect()]

out["lateral_aggregate"] = rows_of(
    "SELECT region, sum(amount) AS total, total * 2 AS twice, twice - total AS again "
    "FROM sales GROUP BY region ORDER BY region")
out["lateral_window"] = rows_of(
    "SELECT id, amount % 40 AS bucket, rank() OVER (ORDER BY bucket DESC, id) AS r "
    "FROM sales ORDER BY r LIMIT 4")
spark.sql("SET spark.colsem.star.exclude=TAGGED")
star = spark.sql("SELECT * FROM sales ORDER BY id LIMIT 2")
out["star_columns"] = star.columns
out["star_rows"] = [list(r) for r in star.select("id", "region", "amount").collect()]
out["named_hidden"] = rows_of("SELECT id, _ingest_ts FROM sales ORDER BY id LIMIT 2")
spark.sql("RESET spark.colsem.star.exclude")
for mode in ("warn", "error"):
    spark.sql(f"SET spark.colsem.invariants={mode}")
    out["invariants_" + mode] = rows_of(
        "SELECT region, count(*) AS n, n * 100 AS pct FROM sales GROUP BY region ORDER BY region")
spark.sql("RESET spark.colsem.invariants")
out["respond"] = colsem.respond(
    spark.sql("SELECT id, attrs['channel'] AS channel FROM sales WHERE id <= 4 ORDER BY id"), format="json")
# A starred write keeps the hidden column's values (last: it doubles the table).
spark.sql("SET spark.colsem.star.exclude=TAGGED")
spark.sql("INSERT INTO sales BY NAME SELECT * FROM sales")
out["after_insert"] = rows_of("SELECT count(*), count(_ingest_ts), count(DISTINCT _ingest_ts) FROM sales")
tasks = {}
executors = sc._jsc.sc().statusStore().executorList(True)
for i in range(executors.size()):
    e = executors.apply(i)
    tasks[e.id()] = e.totalTasks()
out["tasks_per_executor"] = tasks
emit(**out)
"""
)


@pytest.fixture(scope="module")
def cluster_run(workdir: Path, log4j_file: Path) -> dict:
    import pyspark

    submit = [
        str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
        "--master",
        "local-cluster[2,1,1024]",
        "--driver-class-path",
        colsem.jar_path(),
        "--driver-java-options",
        f"-Dlog4j2.configurationFile={log4j_file}",
        "--conf",
        f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        f"spark.sql.warehouse.dir={workdir / 'cluster-warehouse'}",
    ]
    proc = run_python(
        CLUSTER_SCRIPT,
        launcher=submit,
        args=[str(workdir / "cluster-sales")],
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_PYTHON": sys.executable,
            "PYSPARK_DRIVER_PYTHON": sys.executable,
        },
        timeout=600,
    )
    return {"out": result_of(proc), "stderr": proc.stderr}


def test_two_executors_share_the_data_and_the_work(cluster_run):
    out = cluster_run["out"]
    assert out["executors"] == 2
    assert out["status"]["active"] == "true"
    assert out["files"] == 4
    executors = {k: v for k, v in out["tasks_per_executor"].items() if k != "driver"}
    assert sorted(executors) == ["0", "1"]
    assert all(n > 0 for n in executors.values()), out["tasks_per_executor"]


def test_lateral_aliases_over_a_shuffle(cluster_run):
    out = cluster_run["out"]
    assert out["lateral_aggregate"] == [
        ["east", 260, 520, 260],
        ["north", 300, 600, 300],
        ["south", 220, 440, 220],
    ]
    assert out["lateral_window"] == [[3, 30, 1], [7, 30, 2], [11, 30, 3], [2, 20, 4]]


def test_tagged_star_hides_the_column_and_a_starred_write_keeps_it(cluster_run):
    out = cluster_run["out"]
    assert out["star_columns"] == ["id", "region", "amount", "attrs"]
    assert out["star_rows"] == [[1, "south", 10], [2, "east", 20]]
    assert out["named_hidden"] == [[1, "t1"], [2, "t2"]]
    assert out["after_insert"] == [[24, 24, 12]]


def test_invariant_row_checks_run_in_tasks_with_the_jar_on_the_driver_only(cluster_run):
    """The row check is colsem code in tasks: with `--driver-class-path` only, colsem ships its
    jar (before, every task died with a ClassCastException about a SerializedLambda)."""
    out = cluster_run["out"]
    expected = [["east", 4, 400], ["north", 4, 400], ["south", 4, 400]]
    assert out["invariants_warn"] == expected
    assert out["invariants_error"] == expected
    assert "colsem shipped the jar to the executors (SparkContext.addJar)" in cluster_run["stderr"]
    assert "SerializedLambda" not in cluster_run["stderr"]


def test_json_response_tells_missing_from_null_across_executors(cluster_run):
    assert cluster_run["out"]["respond"] == {
        "schema": [{"name": "id", "type": "integer"}, {"name": "channel", "type": "string"}],
        "datarows": [{"id": 1, "channel": None}, {"id": 2}, {"id": 3}, {"id": 4, "channel": "web"}],
        "total": 4,
        "size": 4,
        "status": 200,
    }


def test_getting_started_cluster_example_runs_as_written(workdir: Path):
    """docs/getting-started.md's cluster example: its shell block, run in an empty folder."""
    import pyspark

    text = (ROOT / "docs" / "getting-started.md").read_text()
    section = text[text.index("## On a cluster") :]
    example = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    expected = [line[2:] for line in example.splitlines() if line.startswith("# ")]
    folder = workdir / "getting_started_cluster"
    folder.mkdir(exist_ok=True)
    env = subprocess_env(
        {
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_PYTHON": sys.executable,
            "PATH": os.pathsep.join(
                [
                    str(Path(pyspark.__file__).parent / "bin"),
                    str(Path(sys.executable).parent),
                    os.environ.get("PATH", ""),
                ]
            ),
        }
    )
    proc = subprocess.run(
        ["bash", "-c", example],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert (
        proc.stdout.splitlines()
        == expected
        == ["[Row(k=0, s=20, s10=200), Row(k=1, s=16, s10=160)]"]
    )
