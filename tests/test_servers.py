"""Real servers and clients: the Spark Thrift JDBC server (shipped in the pyspark distribution)
with colsem configured, queried by the real `beeline` client; the `spark-sql` CLI with --conf; a
Spark Connect client (tests/test_connect_server.py starts that server). colsem's features are
visible through each (lateral aliases, star strategies, naming dialects), and a bad setting fails the next query without breaking the session."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import colsem
import pytest
from conftest import SESSION_PRELUDE, result_of, run_python, stop_server, subprocess_env
from golden import running_line
from test_connect_server import _free_port, connect_server  # noqa: F401  (fixture)

LATERAL = "SELECT 2 AS a, a * 10 AS b, b + a AS c"
SETUP = (
    "CREATE TABLE srv_events (id INT, name STRING, _row_id BIGINT) USING parquet "
    "TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')",
    "INSERT INTO srv_events VALUES (1, 'a', 100), (2, 'b', 200)",
)


def _pyspark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def _env() -> dict:
    return subprocess_env({"SPARK_HOME": str(_pyspark_home()), "COLSEM_AUTOREGISTER": "0"})


@pytest.fixture(scope="module")
def thrift_server(workdir: Path, log4j_file: Path):
    port = _free_port()
    home = workdir / "thrift"
    home.mkdir(exist_ok=True)
    log_path = home / "server.log"
    log = log_path.open("w")
    cmd = [
        str(_pyspark_home() / "bin" / "spark-submit"),
        "--class",
        "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2",
        "--name",
        "colsem-thrift-test",
        "--master",
        "local[1]",
        "--driver-java-options",
        f"-Dlog4j2.configurationFile={log4j_file} -Dderby.system.home={home}",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        f"spark.sql.warehouse.dir={home / 'warehouse'}",
        "--jars",
        colsem.jar_path(),
        "--conf",
        f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
        "--hiveconf",
        f"hive.server2.thrift.port={port}",
        "--hiveconf",
        "hive.server2.thrift.bind.host=127.0.0.1",
        "spark-internal",
    ]
    server = subprocess.Popen(
        cmd,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        cwd=str(home),
        env=_env(),
    )
    url = f"jdbc:hive2://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    try:
        while True:  # listening is not enough: wait until a statement runs
            if server.poll() is not None:
                pytest.fail(
                    f"Thrift server exited with {server.returncode}:\n{log_path.read_text()[-4000:]}"
                )
            probe = _beeline(url, ["SELECT 1"], check=False)
            if probe.returncode == 0:
                break
            if time.monotonic() > deadline:
                pytest.fail(
                    f"Thrift server did not answer within 300 s:\n{log_path.read_text()[-4000:]}"
                )
            time.sleep(3)
        yield url
    finally:
        stop_server(server, log)


def _beeline(url: str, statements: list[str], check: bool = True) -> subprocess.CompletedProcess:
    """One beeline session (one JDBC connection) running the statements in order."""
    proc = subprocess.run(
        [
            str(_pyspark_home() / "bin" / "beeline"),
            "-u",
            url,
            "--silent=true",
            "--showHeader=true",
            "--outputformat=tsv2",
            "-e",
            ";\n".join(statements) + ";",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
        stdin=subprocess.DEVNULL,
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"beeline failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr[-4000:]}"
        )
    return proc


def _tables(stdout: str) -> list[list[str]]:
    """beeline's tsv2 output: a header line, then rows; WARNING lines dropped."""
    return [
        line.split("\t") for line in stdout.splitlines() if line and not line.startswith("WARNING")
    ]


def test_beeline_sees_lateral_aliases_and_status(thrift_server: str):
    out = _tables(
        _beeline(
            thrift_server, [LATERAL, "SELECT value FROM colsem_status() WHERE key = 'active'"]
        ).stdout
    )
    assert out == [["a", "b", "c"], ["2", "20", "22"], ["value"], ["true"]]


def test_beeline_sees_star_strategies(thrift_server: str):
    _beeline(thrift_server, list(SETUP))
    out = _tables(
        _beeline(
            thrift_server,
            [
                "SELECT * FROM srv_events ORDER BY id",
                "SET spark.colsem.star.exclude=TAGGED",
                "SELECT * FROM srv_events ORDER BY id",
                "SELECT _row_id, * FROM srv_events ORDER BY id",
            ],
        ).stdout
    )
    assert out == [
        ["id", "name", "_row_id"],
        ["1", "a", "100"],
        ["2", "b", "200"],
        ["key", "value"],
        ["spark.colsem.star.exclude", "TAGGED"],
        ["id", "name"],
        ["1", "a"],
        ["2", "b"],
        ["_row_id", "id", "name"],
        ["100", "1", "a"],
        ["200", "2", "b"],
    ]


def test_beeline_sees_naming_dialects(thrift_server: str):
    out = _tables(
        _beeline(
            thrift_server,
            [
                "SET spark.colsem.naming.dialect=postgres",
                "SELECT 1 + 1, upper('a'), count(*) FROM VALUES (1) AS t(x)",
                "SET spark.colsem.naming.dialect=canonical",
                "SELECT 1 + 1, upper('a')",
            ],
        ).stdout
    )
    assert out == [
        ["key", "value"],
        ["spark.colsem.naming.dialect", "postgres"],
        ["?column?", "upper", "count"],
        ["2", "A", "1"],
        ["key", "value"],
        ["spark.colsem.naming.dialect", "canonical"],
        ["(1 + 1)", "upper(a)"],
        ["2", "A"],
    ]


def test_beeline_bad_setting_fails_the_next_query_and_reset_recovers(thrift_server: str):
    # Each setting in the JDBC session is fixable: SET and RESET always work.
    bad = _beeline(
        thrift_server, ["SET spark.colsem.star.exclude=HIDDEN", "SELECT 1 AS one"], check=False
    )
    assert bad.returncode != 0
    assert _tables(bad.stdout) == [["key", "value"], ["spark.colsem.star.exclude", "HIDDEN"]]
    assert (
        "[COLSEM_INVALID_CONF_VALUE] The value 'HIDDEN' of the config 'spark.colsem.star.exclude'"
        in bad.stderr
    )
    ok = _beeline(
        thrift_server,
        [
            "SET spark.colsem.star.exclude=HIDDEN",
            "RESET spark.colsem.star.exclude",
            "SELECT 1 AS one",
        ],
    )
    assert _tables(ok.stdout)[-2:] == [["one"], ["1"]]


def test_spark_sql_cli_with_conf(workdir: Path, log4j_file: Path):
    home = workdir / "spark-sql-cli"
    home.mkdir(exist_ok=True)
    cmd = [
        str(_pyspark_home() / "bin" / "spark-sql"),
        "--master",
        "local[1]",
        "--driver-java-options",
        f"-Dlog4j2.configurationFile={log4j_file} -Dderby.system.home={home}",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        f"spark.sql.warehouse.dir={home / 'warehouse'}",
        "--jars",
        colsem.jar_path(),
        "--conf",
        f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
        "--conf",
        "spark.colsem.star.exclude=PATTERN",
        "--conf",
        "spark.colsem.star.excludePattern=_.*",
        "--conf",
        "spark.colsem.naming.dialect=mysql",
        "--hiveconf",
        "hive.cli.print.header=true",
        "-e",
        f"{LATERAL}; SELECT * FROM VALUES (1, 'x', 9) AS t(id, v, _row_id);"
        " SELECT _row_id, * FROM VALUES (1, 'x', 9) AS t(id, v, _row_id); SELECT 1+1, 'a' || 'b';",
    ]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
        cwd=str(home),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert _tables(proc.stdout) == [
        ["a", "b", "c"],
        ["2", "20", "22"],
        ["id", "v"],
        ["1", "x"],
        ["_row_id", "id", "v"],
        ["9", "1", "x"],
        ["1+1", "'a' || 'b'"],
        ["2", "ab"],
    ]


def test_connect_client_sees_lateral_aliases_and_star_strategies(connect_server: str):  # noqa: F811
    proc = run_python(
        SESSION_PRELUDE
        + f"""
spark = SparkSession.builder.remote("{connect_server}").getOrCreate()
lateral = spark.sql("{LATERAL}")
rows = {{"lateral": [lateral.columns] + [list(r) for r in lateral.collect()]}}
df = spark.createDataFrame([(1, "x", 9)], "id INT, v STRING, _row_id BIGINT")
spark.conf.set("spark.colsem.star.exclude", "PATTERN")
spark.conf.set("spark.colsem.star.excludePattern", "_.*")
rows["star"] = df.select("*").columns
df.createOrReplaceTempView("srv_cdc")
rows["sql_star"] = spark.sql("SELECT * FROM srv_cdc").columns
rows["named"] = spark.sql("SELECT _row_id, * FROM srv_cdc").columns
spark.conf.set("spark.colsem.naming.dialect", "canonical")
rows["canonical"] = spark.sql("SELECT 1 + 1, -id FROM srv_cdc").columns
emit(**rows)
spark.stop()
"""
    )
    out = result_of(proc)
    # A DataFrame's select("*") on 3.5 keeps Spark's star (strategies apply to SQL text there).
    api_star = ["id", "v", "_row_id"] if running_line() == "3.5" else ["id", "v"]
    assert out == {
        "lateral": [["a", "b", "c"], [2, 20, 22]],
        "star": api_star,
        "sql_star": ["id", "v"],
        "named": ["_row_id", "id", "v"],
        "canonical": ["(1 + 1)", "(- id)"],
    }
