"""The Spark Connect servers PySpark starts itself: `remote("local[2]")`, `spark.api.mode=connect`
with a master, `SPARK_REMOTE=local[2]`. PySpark launches a JVM with the builder's settings and
runs the server there, so automatic registration and `colsem.configure` put colsem into it as into
a classic session. A builder for a running server (`sc://`) keeps the server-side instructions."""

from __future__ import annotations

import colsem
import pytest
from colsem._configure import Target, autoconfigure, session_target
from conftest import (
    SESSION_PRELUDE,
    connect_server_package,
    local_connect_port,
    result_of,
    run_python,
)
from golden import running_line

SPARK_4 = running_line() != "3.5"
needs_api_mode = pytest.mark.skipif(not SPARK_4, reason="PySpark 3.5 has no spark.api.mode")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (
        "SPARK_REMOTE",
        "SPARK_API_MODE",
        "SPARK_CONNECT_MODE",
        "SPARK_CONNECT_MODE_ENABLED",
        "SPARK_LOCAL_REMOTE",
        "MASTER",
    ):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture(autouse=True)
def one_local_server_at_a_time():
    with local_connect_port():
        yield


def _builder(options: dict[str, str]):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder
    for key, value in options.items():
        builder.config(key, value)
    return builder


@pytest.mark.parametrize(
    "options, env, target",
    [
        ({}, {}, Target.CLASSIC),
        ({"spark.master": "local[2]"}, {}, Target.CLASSIC),
        ({"spark.remote": "local[2]"}, {}, Target.LOCAL_CONNECT),
        ({"spark.remote": "local"}, {}, Target.LOCAL_CONNECT),
        ({"spark.remote": "local-cluster[2,1,1024]"}, {}, Target.LOCAL_CONNECT),
        ({}, {"SPARK_REMOTE": "local[2]"}, Target.LOCAL_CONNECT),
        ({"spark.remote": "sc://localhost:15002"}, {}, Target.REMOTE_CONNECT),
        ({}, {"SPARK_REMOTE": "sc://localhost:15002"}, Target.REMOTE_CONNECT),
        # a builder's spark.remote wins over SPARK_REMOTE, as in PySpark
        (
            {"spark.remote": "local[2]"},
            {"SPARK_REMOTE": "sc://localhost:15002"},
            Target.LOCAL_CONNECT,
        ),
        (
            {"spark.remote": "sc://localhost:15002"},
            {"SPARK_REMOTE": "local[2]"},
            Target.REMOTE_CONNECT,
        ),
    ],
)
def test_session_target_follows_pyspark(clean_env, options, env, target):
    for name, value in env.items():
        clean_env.setenv(name, value)
    assert session_target(_builder(options)) is target


# spark.api.mode=connect: PySpark 4 starts a server in a JVM it launches for any master but sc://
# (the master, else MASTER, else local); PySpark 3.5 has no API modes and reads only the URL.
API_MODE_CASES = [  # options, environment, PySpark 4's target, PySpark 3.5's
    (
        {"spark.api.mode": "connect", "spark.master": "local[2]"},
        {},
        Target.LOCAL_CONNECT,
        Target.CLASSIC,
    ),
    ({"spark.api.mode": "CONNECT"}, {}, Target.LOCAL_CONNECT, Target.CLASSIC),
    ({"spark.api.mode": "connect"}, {"MASTER": "local[1]"}, Target.LOCAL_CONNECT, Target.CLASSIC),
    (
        {"spark.api.mode": "connect", "spark.master": "yarn"},
        {},
        Target.LOCAL_CONNECT,
        Target.CLASSIC,
    ),
    (
        {"spark.master": "local[2]"},
        {"SPARK_API_MODE": "connect"},
        Target.LOCAL_CONNECT,
        Target.CLASSIC,
    ),
    (
        {},
        {"SPARK_CONNECT_MODE": "1"},
        Target.LOCAL_CONNECT,
        Target.CLASSIC,
    ),  # pyspark-connect's default
    ({"spark.api.mode": "classic"}, {"SPARK_CONNECT_MODE": "1"}, Target.CLASSIC, Target.CLASSIC),
    ({"spark.api.mode": "classic", "spark.master": "local[2]"}, {}, Target.CLASSIC, Target.CLASSIC),
    (
        {"spark.api.mode": "connect", "spark.remote": "sc://localhost:15002"},
        {},
        Target.REMOTE_CONNECT,
        Target.REMOTE_CONNECT,
    ),
    (
        {"spark.api.mode": "connect"},
        {"SPARK_REMOTE": "sc://localhost:15002"},
        Target.REMOTE_CONNECT,
        Target.REMOTE_CONNECT,
    ),
]


@pytest.mark.parametrize("options, env, target, target_35", API_MODE_CASES)
def test_session_target_follows_pyspark_api_mode(clean_env, options, env, target, target_35):
    for name, value in env.items():
        clean_env.setenv(name, value)
    assert session_target(_builder(options)) is (target if SPARK_4 else target_35)


def test_builders_for_a_running_server_keep_the_instructions(clean_env):
    from pyspark.sql import SparkSession

    builders = [SparkSession.builder.remote("sc://localhost:15002")]
    if SPARK_4:
        builders.append(
            SparkSession.builder.config("spark.api.mode", "connect").config(
                "spark.remote", "sc://localhost:15002"
            )
        )
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    builders.append(ConnectSession.builder.remote("local[2]"))  # a Connect builder starts no server
    for builder in builders:
        before = dict(builder._options)
        with pytest.raises(colsem.ColsemConnectError) as raised:
            colsem.configure(builder)
        assert str(raised.value) == colsem.connect_instructions()
        autoconfigure(builder)
        assert builder._options == before
    clean_env.setenv("SPARK_REMOTE", "sc://localhost:15002")
    with pytest.raises(colsem.ColsemConnectError):
        colsem.configure(SparkSession.builder)


# ---- real sessions: each way in, by automatic registration and by colsem.configure

SERVER_PACKAGE = connect_server_package()  # 3.5's pyspark ships no Connect server
BUILDERS = {
    "remote_local": ('SparkSession.builder.remote("local[2]")', {}),
    "api_mode_connect": (
        'SparkSession.builder.master("local[2]").config("spark.api.mode", "connect")',
        {},
    ),
    "spark_remote_env": ("SparkSession.builder", {"SPARK_REMOTE": "local[2]"}),
}
# A window over a per-row alias: native Spark refuses it (LATERAL_COLUMN_ALIAS_IN_WINDOW).
WINDOW_OVER_ALIAS = (
    "SELECT v * 2 AS d, sum(d) OVER (ORDER BY d) AS running "
    "FROM VALUES (1), (2), (3) AS lt(v) ORDER BY d"
)


@pytest.mark.parametrize("how", ["autoregistration", "configure"])
@pytest.mark.parametrize(
    "way",
    ["remote_local", pytest.param("api_mode_connect", marks=needs_api_mode), "spark_remote_env"],
)
def test_local_connect_server_gets_colsem(way: str, how: str):
    builder, env = BUILDERS[way]
    builder += '.config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")'
    if SERVER_PACKAGE:
        builder += f'.config("spark.jars.packages", "{SERVER_PACKAGE}")'
    if how == "configure":
        builder = f"colsem.configure({builder})"
        env = {**env, "COLSEM_AUTOREGISTER": "0"}
    proc = run_python(
        SESSION_PRELUDE
        + f"""
import colsem
spark = {builder}.getOrCreate()
df = spark.sql("{WINDOW_OVER_ALIAS}")
emit(session=type(spark).__module__, status=status_of(spark),
     extensions=spark.conf.get("spark.sql.extensions", None),
     schema=[(f.name, f.dataType.simpleString()) for f in df.schema.fields],
     rows=[list(r) for r in df.collect()])
spark.stop()
""",
        env=env,
    )
    out = result_of(proc)
    assert out["session"] == "pyspark.sql.connect.session"
    assert out["status"]["active"] == "true", out["status"]
    assert out["status"]["version"] == colsem.build_info().version
    assert out["extensions"] == colsem.EXTENSION_CLASS
    assert out["schema"] == [["d", "int"], ["running", "bigint"]]
    assert out["rows"] == [[2, 2], [4, 6], [6, 12]]
    # PySpark re-sets the server's start-up settings on the Connect session and warns for each
    # static one; colsem's would read as a failure.
    assert "colsem was not registered" not in proc.stderr
    assert "Failed to set spark.sql.extensions" not in proc.stderr
    assert "Failed to set spark.jars" not in proc.stderr


@pytest.mark.skipif(
    SPARK_4,
    reason="PySpark 4 starts a Connect server for spark.api.mode=connect "
    "(test_local_connect_server_gets_colsem)",
)
def test_api_mode_is_classic_on_pyspark_35():
    proc = run_python(
        SESSION_PRELUDE
        + """
spark = local_builder().config("spark.api.mode", "connect").getOrCreate()
emit(session=type(spark).__module__, status=status_of(spark))
spark.stop()
"""
    )
    out = result_of(proc)
    assert out["session"] == "pyspark.sql.session"
    assert out["status"]["active"] == "true", out["status"]


def test_getting_started_local_connect_example_prints_what_the_doc_shows():
    """docs/getting-started.md's local Spark Connect example, run as written after pip install,
    prints exactly the output block under it."""
    import re

    from conftest import ROOT

    text = (ROOT / "docs" / "getting-started.md").read_text()
    section = text[text.index("### A local Spark Connect server") :]
    match = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", section, re.S)
    assert match, "docs/getting-started.md lost its local Spark Connect example and output blocks"
    code, expected = match.groups()
    if SERVER_PACKAGE:
        code = code.replace(
            '.remote("local[2]")',
            f'.remote("local[2]").config("spark.jars.packages", "{SERVER_PACKAGE}")',
        )
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # Ivy, resolving 3.5's Connect server package, prints its settings line on stdout.
    printed = [
        line
        for line in proc.stdout.splitlines(True)
        if not line.startswith(":: loading settings :: ")
    ]
    assert "".join(printed) == expected
