"""colsem on a Spark Connect server: the jar and extension are given where the server starts, and
a Connect client (which cannot load jars) sees colsem active through SQL, gets the responses of a
classic session (MISSING told from NULL by colsem_with_presence on the server), and `colsem sql
--remote` runs there."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import colsem
import pytest
from conftest import (
    SESSION_PRELUDE,
    connect_server_package,
    result_of,
    run_python,
    stop_server,
    subprocess_env,
)
from golden import running_line, version_property


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def connect_server(workdir: Path, log4j_file: Path):
    import pyspark

    port = _free_port()
    log = (workdir / "connect-server.log").open("w")
    package = connect_server_package()
    server_jar = ["--packages", package] if package else []
    cmd = [
        str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
        "--class",
        "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--name",
        "colsem-connect-test",
        "--master",
        "local[1]",
        *server_jar,
        "--driver-java-options",
        f"-Dlog4j2.configurationFile={log4j_file}",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        "spark.connect.grpc.binding.address=127.0.0.1",
        "--conf",
        f"spark.connect.grpc.binding.port={port}",
        "--conf",
        f"spark.sql.warehouse.dir={workdir / 'connect-warehouse'}",
        "--jars",
        colsem.jar_path(),
        "--conf",
        f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
        "spark-internal",
    ]
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 300  # a first --packages run downloads the server
    try:
        while True:
            if server.poll() is not None:
                pytest.fail(
                    f"Connect server exited with {server.returncode}:\n"
                    + (workdir / "connect-server.log").read_text()[-4000:]
                )
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("Connect server did not listen within 300 s")
                time.sleep(0.5)
        yield f"sc://127.0.0.1:{port}"
    finally:
        stop_server(server, log)


def test_connect_client_sees_colsem_active_on_the_server(connect_server: str):
    proc = run_python(
        SESSION_PRELUDE
        + f"""
import colsem
spark = SparkSession.builder.remote("{connect_server}").getOrCreate()
try:
    colsem.configure(SparkSession.builder.remote("{connect_server}"))
    configure_error = None
except colsem.ColsemConnectError as exc:
    configure_error = str(exc)
rows = spark.sql("SELECT key, value FROM colsem_status() WHERE key IN ('active', 'version')").collect()
emit(status=colsem.status(spark), rows=[list(r) for r in rows], configure_error=configure_error,
     connect=type(spark).__module__)
spark.stop()
"""
    )
    out = result_of(proc)
    assert out["connect"] == "pyspark.sql.connect.session"
    assert out["status"]["active"] == "true"
    assert out["rows"] == [["active", "true"], ["version", colsem.build_info().version]]
    assert out["configure_error"].startswith("colsem runs inside the Spark Connect server")


# ---- colsem.respond over Spark Connect: MISSING told from NULL by colsem_with_presence on the server

HAS_VARIANT = running_line() != "3.5"  # Spark 3.5 has no VARIANT (docs/versions.md)

BANK = '{"account_number":1,"age":31}\n{"account_number":2,"age":null}\n{"account_number":3}\n'

# Run as written in this process (a classic session) and in a Connect client: the same views and
# DataFrames, built by the same code, on both sides.
RESPONSE_CASES = """
def response_cases(spark, folder, has_variant):
    from pyspark.sql import functions as F

    spark.sql(f"CREATE OR REPLACE TEMP VIEW cb_map_raw AS SELECT * FROM parquet.`{folder}/map`")
    spark.sql("CREATE OR REPLACE TEMP VIEW cb_map AS SELECT doc['account_number'] AS account_number, "
              "CAST(doc['age'] AS INT) AS age FROM cb_map_raw")
    typed = "cb_map"
    if has_variant:
        spark.sql(f"CREATE OR REPLACE TEMP VIEW cb_variant_raw AS SELECT * FROM parquet.`{folder}/variant`")
        spark.sql("CREATE OR REPLACE TEMP VIEW cb_variant AS SELECT "
                  "variant_get(doc, '$.account_number', 'long') AS account_number, "
                  "variant_get(doc, '$.age', 'int') AS age FROM cb_variant_raw")
        typed = "cb_variant"
    cases = {
        "typed_view": spark.sql(f"SELECT age, account_number FROM {typed} ORDER BY account_number"),
        "map_lookup": spark.sql("SELECT doc['age'] AS age, element_at(doc, 'age') AS e "
                                "FROM cb_map_raw ORDER BY doc['account_number']"),
        "outer_join": spark.sql("SELECT k.id, b.age FROM VALUES (1), (3), (9) AS k(id) "
                                "LEFT JOIN cb_map b ON b.account_number = k.id ORDER BY k.id"),
        "cte_read_twice": spark.sql(
            "WITH b AS (SELECT doc['age'] AS age, doc['account_number'] AS n FROM cb_map_raw) "
            "SELECT age FROM b WHERE n <= (SELECT max(n) FROM b) ORDER BY n"),
        "union_all": spark.sql(f"SELECT * FROM (SELECT age, account_number FROM {typed} "
                               "UNION ALL SELECT CAST(NULL AS INT), 20) ORDER BY account_number"),
        "past_aggregate": spark.sql(f"SELECT account_number, max(age) AS age FROM {typed} "
                                    "GROUP BY account_number ORDER BY account_number"),
        "dataframe_api": spark.table("cb_map_raw").select(
            F.col("doc")["age"].alias("age"), F.col("doc")["account_number"].alias("n")).orderBy("n"),
    }
    if has_variant:
        cases["variant_null_vs_missing"] = spark.sql(
            "SELECT variant_get(doc, '$.age', 'variant') AS age, doc FROM cb_variant_raw "
            "ORDER BY variant_get(doc, '$.account_number', 'long')")
        raw = spark.table("cb_variant_raw")
        cases["variant_dataframe_api"] = raw.select(
            F.variant_get(raw.doc, "$.age", "int").alias("age"),
            F.variant_get(raw.doc, "$.account_number", "long").alias("n")).orderBy("n")
    return cases


def response_texts(spark, folder, has_variant):
    import colsem

    out = {name: colsem.respond_text(df, format="json")
           for name, df in response_cases(spark, folder, has_variant).items()}
    df = response_cases(spark, folder, has_variant)["typed_view"]
    out["iter_pieces"] = list(colsem.respond_iter(df, format="json", fetch_size=2))
    out["respond_rows"] = colsem.respond(df, format="json", fetch_size=1)["datarows"]
    out["missing_null"] = colsem.respond_text(df, format="json", missing="null")
    return out
"""

SCHEMA_AGE_N = '{"schema":[{"name":"age","type":"integer"},{"name":"account_number","type":"long"}]'
EXPECTED_TEXTS = {
    "typed_view": SCHEMA_AGE_N + ',"datarows":[{"age":31,"account_number":1},'
    '{"age":null,"account_number":2},{"account_number":3}],"total":3,"size":3,"status":200}',
    "map_lookup": '{"schema":[{"name":"age","type":"long"},{"name":"e","type":"long"}],'
    '"datarows":[{"age":31,"e":31},{"age":null,"e":null},{}],"total":3,"size":3,"status":200}',
    "outer_join": '{"schema":[{"name":"id","type":"integer"},{"name":"age","type":"integer"}],'
    '"datarows":[{"id":1,"age":31},{"id":3},{"id":9,"age":null}],"total":3,"size":3,"status":200}',
    "cte_read_twice": '{"schema":[{"name":"age","type":"long"}],'
    '"datarows":[{"age":31},{"age":null},{}],"total":3,"size":3,"status":200}',
    "union_all": SCHEMA_AGE_N
    + ',"datarows":[{"age":31,"account_number":1},{"age":null,"account_number":2},'
    '{"account_number":3},{"age":null,"account_number":20}],"total":4,"size":4,"status":200}',
    "past_aggregate": '{"schema":[{"name":"account_number","type":"long"},{"name":"age","type":"integer"}],'
    '"datarows":[{"account_number":1,"age":31},{"account_number":2,"age":null},'
    '{"account_number":3,"age":null}],"total":3,"size":3,"status":200}',
    "dataframe_api": '{"schema":[{"name":"age","type":"long"},{"name":"n","type":"long"}],'
    '"datarows":[{"age":31,"n":1},{"age":null,"n":2},{"n":3}],"total":3,"size":3,"status":200}',
    "iter_pieces": [
        SCHEMA_AGE_N + ',"datarows":[',
        '{"age":31,"account_number":1},{"age":null,"account_number":2}',
        ',{"account_number":3}',
        '],"total":3,"size":3,"status":200}',
    ],
    "respond_rows": [
        {"age": 31, "account_number": 1},
        {"age": None, "account_number": 2},
        {"account_number": 3},
    ],
    "missing_null": SCHEMA_AGE_N + ',"datarows":[{"age":31,"account_number":1},'
    '{"age":null,"account_number":2},{"age":null,"account_number":3}],"total":3,"size":3,"status":200}',
}
if HAS_VARIANT:
    EXPECTED_TEXTS.update(
        {
            "variant_null_vs_missing": '{"schema":[{"name":"age","type":"variant"},{"name":"doc","type":"variant"}],'
            '"datarows":[{"age":31,"doc":{"account_number":1,"age":31}},'
            '{"age":null,"doc":{"account_number":2,"age":null}},'
            '{"doc":{"account_number":3}}],"total":3,"size":3,"status":200}',
            "variant_dataframe_api": '{"schema":[{"name":"age","type":"integer"},{"name":"n","type":"long"}],'
            '"datarows":[{"age":31,"n":1},{"age":null,"n":2},{"n":3}],'
            '"total":3,"size":3,"status":200}',
        }
    )


@pytest.fixture(scope="module")
def bank_parquet(spark, workdir: Path) -> Path:
    """The bank documents as parquet, a MAP column (and on Spark 4 a VARIANT one), written by the
    classic session where the Connect server (same machine) reads them too."""
    folder = workdir / "connect_bank"
    folder.mkdir(exist_ok=True)
    (folder / "bank.json").write_text(BANK)
    (
        spark.read.text(str(folder / "bank.json"))
        .selectExpr("from_json(value, 'map<string,bigint>') AS doc")
        .write.mode("overwrite")
        .parquet(str(folder / "map"))
    )
    if HAS_VARIANT:
        (
            spark.read.option("singleVariantColumn", "doc")
            .json(str(folder / "bank.json"))
            .write.mode("overwrite")
            .parquet(str(folder / "variant"))
        )
    return folder


def test_classic_responses_tell_missing_from_null(spark, bank_parquet: Path) -> None:
    namespace: dict = {}
    exec(RESPONSE_CASES, namespace)
    assert (
        namespace["response_texts"](spark.newSession(), str(bank_parquet), HAS_VARIANT)
        == EXPECTED_TEXTS
    )


def test_connect_responses_are_the_classic_ones(connect_server: str, bank_parquet: Path) -> None:
    """The same queries and DataFrames over Spark Connect: the server's colsem_with_presence tells
    MISSING from NULL, so every response is the classic session's text."""
    proc = run_python(
        SESSION_PRELUDE
        + RESPONSE_CASES
        + f"""
spark = SparkSession.builder.remote("{connect_server}").getOrCreate()
emit(connect=type(spark).__module__, texts=response_texts(spark, {str(bank_parquet)!r}, {HAS_VARIANT}),
     views=sorted(t.name for t in spark.catalog.listTables() if t.name.startswith("_")))
spark.stop()
"""
    )
    out = result_of(proc)
    assert out["connect"] == "pyspark.sql.connect.session"
    assert out["texts"] == EXPECTED_TEXTS
    assert out["views"] == []  # nothing of the responses' own is left in the session


def colsem_sql(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "SPARK_"))}
    return subprocess.run(
        [sys.executable, "-m", "colsem", "sql"] + args,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


BANK_CLI_ITEMS = (
    (
        "SELECT variant_get(doc, '$.age', 'int') AS age, "
        "variant_get(doc, '$.account_number', 'long') AS account_number"
    )
    if HAS_VARIANT
    else "SELECT CAST(doc['age'] AS INT) AS age, doc['account_number'] AS account_number"
)


def test_cli_remote_runs_every_format_on_the_server(
    connect_server: str, bank_parquet: Path
) -> None:
    bank = bank_parquet / ("variant" if HAS_VARIANT else "map")
    sql = BANK_CLI_ITEMS + " FROM bank ORDER BY 2"
    view = ["--view", f"bank={bank}"]
    outputs = {
        fmt: colsem_sql(["--remote", connect_server, sql, *view, "--format", fmt])
        for fmt in ("json", "jdbc", "csv", "table")
    }
    for proc in outputs.values():
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert outputs["json"].stdout == EXPECTED_TEXTS["typed_view"] + "\n"
    assert outputs["jdbc"].stdout == (
        SCHEMA_AGE_N + ',"datarows":[[31,1],[null,2],[null,3]],"total":3,"size":3,"status":200}\n'
    )
    assert outputs["csv"].stdout == "age,account_number\n31,1\n,2\n,3\n"
    assert outputs["table"].stdout == (
        "+------+----------------+\n"
        "| age  | account_number |\n"
        "+------+----------------+\n"
        "| 31   | 1              |\n"
        "| NULL | 2              |\n"
        "| NULL | 3              |\n"
        "+------+----------------+\n"
        "(3 rows)\n"
    )
    # SPARK_REMOTE, as PySpark reads it, and statements with a SQL setting from --conf
    proc = colsem_sql(
        [
            f"CREATE TEMP VIEW q AS {BANK_CLI_ITEMS} FROM parquet.`{bank}`;\n"
            "SELECT age, account_number, current_timezone() AS tz FROM q ORDER BY 2;",
            "--format",
            "json",
            "--conf",
            "spark.sql.session.timeZone=Asia/Tokyo",
        ],
        env={"SPARK_REMOTE": connect_server},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (
        '{"schema":[{"name":"age","type":"integer"},{"name":"account_number","type":"long"},'
        '{"name":"tz","type":"string"}],"datarows":[{"age":31,"account_number":1,"tz":"Asia/Tokyo"},'
        '{"age":null,"account_number":2,"tz":"Asia/Tokyo"},{"account_number":3,"tz":"Asia/Tokyo"}],'
        '"total":3,"size":3,"status":200}\n'
    )


def test_cli_remote_refuses_what_only_a_starting_server_takes(
    connect_server: str, workdir: Path
) -> None:
    proc = colsem_sql(["--remote", connect_server, "--master", "local[1]", "SELECT 1"])
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.startswith(
        f"colsem sql: --master cannot apply with --remote {connect_server}: "
        "a Spark Connect server runs on the master it was started with."
    )
    proc = colsem_sql(
        ["SELECT 1", "--warehouse", str(workdir)], env={"SPARK_REMOTE": connect_server}
    )
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.startswith(
        f"colsem sql: --warehouse cannot apply with SPARK_REMOTE={connect_server}: "
        "spark.sql.warehouse.dir is a static setting"
    )
    proc = colsem_sql(
        ["--remote", connect_server, "SELECT 1", "--conf", "spark.sql.warehouse.dir=/tmp/w"]
    )
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr.startswith(
        f"colsem sql: --conf spark.sql.warehouse.dir cannot apply with --remote "
        f"{connect_server}: the server refused it ("
    )
    assert "Static and Spark core settings are fixed where the server starts" in proc.stderr


def test_getting_started_connect_example_prints_what_the_doc_shows(connect_server: str) -> None:
    """docs/getting-started.md's Spark Connect client, run against this server, prints exactly the
    output block under it; its `colsem sql --remote` line prints the output in its comment."""
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "getting-started.md").read_text()
    section = text[text.index("### A server that runs elsewhere") :]
    match = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", section, re.S)
    assert match, "docs/getting-started.md lost its Spark Connect example and output blocks"
    code, expected = match.groups()
    proc = run_python(code.replace("sc://localhost:15002", connect_server))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == expected
    cli = re.search(
        r"\ncolsem sql --remote sc://localhost:15002 (\".*?\") --format json\n# (.*)\n", section
    )
    assert cli, "docs/getting-started.md lost its colsem sql --remote example"
    proc = colsem_sql(["--remote", connect_server, json.loads(cli.group(1)), "--format", "json"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == cli.group(2) + "\n"


# ---- the pure-Python client: pyspark-client from PyPI (no JVM) with colsem beside it

CLIENT_VERSION = (
    None if running_line() == "3.5" else version_property(f"line.{running_line()}.connect.client")
)
needs_client = pytest.mark.skipif(
    CLIENT_VERSION is None, reason="pyspark-client starts with Spark 4.0"
)


def _venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def client_python(workdir: Path) -> Path:
    """A venv with pyspark-client (jvm/versions.properties line.<L>.connect.client) and colsem from a
    wheel built from this tree, installed together as a user does (`pip install colsem-*.whl
    pyspark-client==V`), so pip resolves colsem's requirements. The venv (.venv-client) keeps
    pyspark-client and its dependencies between runs; colsem is installed afresh each time."""
    from conftest import ROOT

    venv = ROOT / ".venv-client"
    marker = venv / f".pyspark-client-{CLIENT_VERSION}"
    pip = [str(_venv_python(venv)), "-m", "pip", "--disable-pip-version-check", "-q"]
    if (
        not marker.exists()
        or subprocess.run(pip + ["show", "pyspark"], capture_output=True).returncode == 0
    ):
        # new, another client version, or a full pyspark crept in: start from nothing
        import shutil

        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            pip + ["install", f"pyspark-client=={CLIENT_VERSION}"], check=True, timeout=900
        )
        marker.touch()
    wheels = workdir / "client-wheel"
    # The wheel a user's `pip wheel .` builds, with the jars of the server's line and of the
    # client's (colsem on the client checks its pyspark-client's version against the lines it
    # carries); the long tier checks the wheel of every line.
    import build_jar_access  # noqa: F401  (python/ on the path)
    from hatch_hooks import JAR_LINES_VARIABLE  # hatchling: the dev venv's, not a user's

    client_line = ".".join(str(CLIENT_VERSION).split(".")[:2])

    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, JAR_LINES_VARIABLE: f"{running_line()},{client_line}"},
    )
    subprocess.run(pip + ["uninstall", "-y", "colsem"], check=True)
    subprocess.run(
        pip
        + ["install", str(next(wheels.glob("colsem-*.whl"))), f"pyspark-client=={CLIENT_VERSION}"],
        check=True,
        timeout=900,
    )
    return _venv_python(venv)


@needs_client
def test_pyspark_client_installs_colsem_without_pyspark(client_python: Path) -> None:
    proc = run_python(
        """
import json
from importlib.metadata import PackageNotFoundError, version
from pyspark.util import is_remote_only
def installed(name):
    try:
        return version(name)
    except PackageNotFoundError:
        return None
print("RESULT " + json.dumps({"remote_only": is_remote_only(), "pyspark": installed("pyspark"),
                              "client": installed("pyspark-client"), "colsem": installed("colsem")}))
""",
        launcher=[str(client_python)],
    )
    assert result_of(proc) == {
        "remote_only": True,
        "pyspark": None,
        "client": CLIENT_VERSION,
        "colsem": colsem.__version__,
    }


@needs_client
def test_pyspark_client_gets_colsem_responses(
    client_python: Path, connect_server: str, bank_parquet: Path
) -> None:
    """colsem.status and every response of the classic session, MISSING told from NULL, from a
    client with no JVM; configure still explains that colsem belongs on the server."""
    proc = run_python(
        SESSION_PRELUDE
        + RESPONSE_CASES
        + f"""
import colsem
spark = SparkSession.builder.remote("{connect_server}").getOrCreate()
errors = []
for builder in (SparkSession.builder.remote("{connect_server}"), SparkSession.builder.remote("local[2]")):
    try:
        colsem.configure(builder)
    except colsem.ColsemConnectError as exc:
        errors.append(str(exc) == colsem.connect_instructions())
emit(connect=type(spark).__module__, status=colsem.status(spark), configure_errors=errors,
     texts=response_texts(spark, {str(bank_parquet)!r}, {HAS_VARIANT}))
spark.stop()
""",
        launcher=[str(client_python)],
    )
    out = result_of(proc)
    assert out["connect"] == "pyspark.sql.connect.session"
    assert out["status"]["active"] == "true"
    assert out["status"]["version"] == colsem.build_info().version
    assert out["status"]["built_for_spark"] == running_line()
    assert out["configure_errors"] == [True, True]
    assert out["texts"] == EXPECTED_TEXTS
    assert "colsem was not registered" not in proc.stderr


@needs_client
def test_pyspark_client_cli_remote(
    client_python: Path, connect_server: str, bank_parquet: Path
) -> None:
    bank = bank_parquet / ("variant" if HAS_VARIANT else "map")
    proc = subprocess.run(
        [
            str(client_python),
            "-m",
            "colsem",
            "sql",
            "--remote",
            connect_server,
            BANK_CLI_ITEMS + " FROM bank ORDER BY 2",
            "--view",
            f"bank={bank}",
            "--format",
            "json",
        ],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == EXPECTED_TEXTS["typed_view"] + "\n"


@needs_client
def test_getting_started_pyspark_client_commands_print_what_the_doc_shows(
    client_python: Path, connect_server: str
) -> None:
    """docs/getting-started.md's pyspark-client block: each command after the pip line, run with
    the client venv first on PATH, prints the comment lines under it."""
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "getting-started.md").read_text()
    section = text[text.index("### pyspark-client (no JVM)") :]
    block = re.search(r"```sh\npip install colsem pyspark-client\n(.*?)```", section, re.S)
    assert block, "docs/getting-started.md lost its pyspark-client commands"
    commands = re.findall(r"^([^#\n].*)\n((?:# .*\n)+)", block.group(1), re.M)
    assert len(commands) == 2
    env = subprocess_env({"PATH": f"{client_python.parent}{os.pathsep}{os.environ['PATH']}"})
    for command, expected in commands:
        proc = subprocess.run(
            ["bash", "-c", command.replace("sc://localhost:15002", connect_server)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert proc.stdout == "".join(line[2:] + "\n" for line in expected.splitlines())


# ---- what Spark reports of a stream, through Spark Connect (tests/stream_progress.py)

CONNECT_PROGRESS = """
sys.path.insert(0, TESTS)
from stream_progress import SETTINGS, observe

spark = SparkSession.builder.remote(SERVER).getOrCreate()
spark.range(3).selectExpr("id AS k", "id * 10 AS v").coalesce(1).write.parquet(f"{FOLDER}/source")
SINKS = {
    "memory": lambda w, n: w.format("memory").queryName(n).start(),
    "noop": lambda w, n: w.format("noop").start(),
    "toTable": lambda w, n: w.toTable(n),
    "memory_aggregate": lambda w, n: w.format("memory").queryName(n).outputMode("complete").start(),
}
runs = {}
for sink, start in SINKS.items():
    for setting in SETTINGS:
        name = f"connect_progress_{sink}_{setting}"
        frame = spark.readStream.schema("k BIGINT, v BIGINT").parquet(f"{FOLDER}/source")
        if sink == "memory_aggregate":
            frame = frame.groupBy((frame.k % 2).alias("parity")).count()
        else:
            frame = frame.selectExpr("k", "v + 1 AS w")
        writer = frame.writeStream.option("checkpointLocation", f"{FOLDER}/ck/{name}")
        runs[f"{sink} / {setting}"] = observe(spark, setting, lambda: start(writer, name))
emit(connect=type(spark).__module__, runs=runs)
spark.stop()
"""


@pytest.mark.skipif(
    running_line() == "3.5",
    reason="PySpark 3.5's Spark Connect runs a query listener on the server",
)
def test_connect_stream_progress_is_vanillas_under_every_invariants_setting(
    connect_server: str, tmp_path: Path
) -> None:
    """A Connect client's streams (DSv2 memory and noop sinks, toTable, a stateful query):
    recentProgress and its listener's progress events under invariants off, warn and error,
    set on the client's session, equal vanilla's (spark.colsem.enabled=false)."""
    from conftest import TESTS

    proc = run_python(
        SESSION_PRELUDE
        + f"TESTS, SERVER, FOLDER = {str(TESTS)!r}, {connect_server!r}, {str(tmp_path)!r}\n"
        + CONNECT_PROGRESS
    )
    out = result_of(proc)
    assert out["connect"] == "pyspark.sql.connect.session"
    runs = out["runs"]
    # the first micro-batch: 3 rows in, the sink's rows out (-1 for a parquet table's older sink)
    sink_rows = {"memory": 3, "noop": 3, "toTable": -1, "memory_aggregate": 2}
    for sink, rows in sink_rows.items():
        vanilla = runs[f"{sink} / vanilla"]
        assert vanilla["progress"][0][:3] == [0, 3, rows], (sink, vanilla)
        assert vanilla["events"] == vanilla["progress"], sink
        for setting in ("off", "warn", "error"):
            assert runs[f"{sink} / {setting}"] == vanilla, (sink, setting)
