"""Shared fixtures: one colsem SparkSession per pytest process, parquet tables in a local
warehouse, and a runner for the tests that need a fresh JVM (static confs, spark-submit)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import pyspark.sql
from golden import running_line, version_property

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
# Set by `make dist-check` (buildtools/release.py), which runs the smoke suite in a fresh venv holding
# the wheel from this dist folder: colsem must then be that installed package, never python/ here.
DIST_DIR = os.environ.get("COLSEM_DIST_DIR")
# tests/test_dist.py checks the artifacts in DIST_DIR, so only that run collects it.
collect_ignore = [] if DIST_DIR else ["test_dist.py"]


def installed_colsem() -> Path:
    """The folder of the colsem package this interpreter imports, which must be its site-packages'
    (not the tree's python/colsem)."""
    spec = importlib.util.find_spec("colsem")
    folder = Path(spec.origin).parent if spec and spec.origin else None
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    if folder is None or folder.resolve().parent != site:
        raise pytest.UsageError(
            f"COLSEM_DIST_DIR is set, so the tests run on the installed wheel, but colsem is "
            f"{folder or 'not installed'} (this interpreter's site-packages: {site})."
        )
    return folder


if DIST_DIR:
    installed_colsem()
# Scheduling over pytest-xdist's processes (`make test` runs two, a file at a time, `--dist
# loadfile`): the files that start a Spark Connect server on port 15002 (local_connect_port) form
# one unit of work, run by one process one file after the other, so the other process never waits
# on the port's lock; and the units start longest first (tests/durations.json, seconds per file
# from the last recorded run on the default line), so no long file starts last and runs alone.
LOCAL_CONNECT_FILES = ("test_connect_local.py", "test_pipelines.py", "test_streaming.py")
LOCAL_CONNECT_UNIT = "tests/local-connect-15002"
DURATIONS = TESTS / "durations.json"
# COLSEM_RECORD_DURATIONS=<file>: write this run's seconds per file there (the format above);
# <folder>/ (a trailing slash, as .ci/run sets it): a file per run there, named by line and process.
RECORD_DURATIONS = os.environ.get("COLSEM_RECORD_DURATIONS")


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or the local Connect unit."""
    file = nodeid.split("::", 1)[0]
    return LOCAL_CONNECT_UNIT if Path(file).name in LOCAL_CONNECT_FILES else file


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByWorkUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    # Keep the collection's order (longest first, below), not xdist's order by count of tests.
    config.option.loadscopereorder = False
    return ByWorkUnit(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    seconds = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    per_unit: dict[str, float] = {}
    for file, value in seconds.items():
        per_unit[work_unit(file)] = per_unit.get(work_unit(file), 0.0) + value
    # A stable sort: within a unit, the files' own order.
    items.sort(key=lambda item: -per_unit.get(work_unit(item.nodeid), 0.0))


_recorded: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if RECORD_DURATIONS:
        file = report.nodeid.split("::", 1)[0]
        _recorded[file] = _recorded.get(file, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    # The controller's run only (xdist workers set workerinput).
    if RECORD_DURATIONS and _recorded and not hasattr(session.config, "workerinput"):
        rounded = {file: round(value, 1) for file, value in sorted(_recorded.items())}
        target = Path(RECORD_DURATIONS)
        if RECORD_DURATIONS.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            target = target / f"spark-{running_line()}-{os.getpid()}.json"
        target.write_text(json.dumps(rounded, indent=1) + "\n")


# spark-defaults.conf for every Spark JVM the tests start (JIT and GC flags only; see the file).
SPARK_TEST_CONF_DIR = str(TESTS / "spark-conf")
os.environ.setdefault("SPARK_CONF_DIR", SPARK_TEST_CONF_DIR)


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("colsem")


@pytest.fixture(scope="session")
def log4j_file(workdir: Path) -> Path:
    """Spark prints its logs on the JVM's stderr; keep the subprocesses' lean and predictable
    (warnings, and colsem's own info lines, which some tests read)."""
    from colsem._sql_session import log4j_properties

    path = workdir / "log4j2.properties"
    path.write_text(log4j_properties("warn", {"io.colsem": "info"}))
    return path


@pytest.fixture(scope="session")
def spark(workdir: Path) -> Iterator[pyspark.sql.SparkSession]:
    """The shared session, with colsem added through colsem.configure."""
    import colsem
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName("colsem-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.warehouse.dir", str(workdir / "warehouse"))
        .config("spark.local.dir", str(workdir / "local"))
    )
    session = colsem.configure(builder).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    create_tables(session)
    yield session
    session.stop()


def create_tables(session: pyspark.sql.SparkSession) -> None:
    """Small parquet tables on disk, shared by the golden files and the conservative check."""
    session.sql("CREATE TABLE t1 (s1 INT, s2 STRING, s3 DOUBLE) USING parquet")
    session.sql(
        "INSERT INTO t1 VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, NULL, 3.25), (3, 'c', -1.0)"
    )
    session.sql("CREATE TABLE t2 (id INT, name STRING, tags ARRAY<STRING>) USING parquet")
    session.sql(
        "INSERT INTO t2 VALUES (1, 'one', array('x', 'y')), (3, 'three', array()), (4, 'four', NULL)"
    )


def subprocess_env(
    extra: dict[str, str] | None = None, long_running: bool = False
) -> dict[str, str]:
    """This process's environment without its PYSPARK_*/SPARK_* settings (a subprocess starts as a
    user's would), with the tests' spark-defaults.conf, then ``extra``. A ``long_running`` JVM
    (minutes of Spark jobs, Delta's say) keeps the JVM's own JIT: C1 alone makes it slower."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "SPARK_"))}
    if not long_running:
        env["SPARK_CONF_DIR"] = SPARK_TEST_CONF_DIR
    env.update(extra or {})
    return env


def run_python(
    script: str,
    env: dict[str, str] | None = None,
    args: list[str] | None = None,
    launcher: list[str] | None = None,
    timeout: int = 300,
    long_running: bool = False,
) -> subprocess.CompletedProcess:
    """Run a Python script in a new process (a new JVM) and return the finished process.

    The script prints its results as one JSON line starting with ``RESULT ``; see :func:`result_of`.
    ``launcher`` replaces ``python`` (e.g. a spark-submit command line ending in the script)."""
    from tempfile import NamedTemporaryFile

    with NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(textwrap.dedent(script))
    full_env = subprocess_env(env, long_running)
    cmd = (launcher or [sys.executable]) + [f.name] + (args or [])
    try:
        return subprocess.run(
            cmd,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=str(ROOT),
            stdin=subprocess.DEVNULL,
        )
    finally:
        os.unlink(f.name)


def connect_server_package() -> str:
    """The Maven coordinate of the Spark Connect server to add, or "" where pyspark ships it
    (pyspark 4 does; for 3.5 it is a separate artifact on Maven Central)."""
    import pyspark

    jars = Path(pyspark.__file__).parent / "jars"
    return (
        ""
        if list(jars.glob("spark-connect_*.jar"))
        else version_property(f"line.{running_line()}.connect.server")
    )


def stop_server(server: subprocess.Popen, log) -> None:
    """Stop a server process started by a test fixture and close its log."""
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


@contextlib.contextmanager
def local_connect_port() -> Iterator[None]:
    """Held while a test runs a Spark Connect server PySpark starts itself on the default port
    15002 (`remote("local")`, every `spark-pipelines run`): their clients always connect there
    (only SPARK_TESTING, which also turns on Spark's test-only checks, moves them), so the test
    processes take turns instead of failing with a BindException."""
    import fcntl
    import tempfile

    with open(Path(tempfile.gettempdir()) / "colsem-tests-connect-15002.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def result_of(proc: subprocess.CompletedProcess) -> dict:
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise AssertionError(
        f"no RESULT line (exit {proc.returncode}).\nstdout:\n{proc.stdout}\n"
        f"stderr:\n{proc.stderr[-6000:]}"
    )


# Prepended to subprocess scripts: a local session builder and a status printer.
SESSION_PRELUDE = """\
import json, os, sys
from pyspark.sql import SparkSession

def local_builder():
    return (SparkSession.builder.master("local[1]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1"))

def status_of(spark):
    try:
        return {r["key"]: r["value"] for r in spark.sql("SELECT key, value FROM colsem_status()").collect()}
    except Exception as exc:
        return {"active": "false", "error": type(exc).__name__ + ": " + str(exc).splitlines()[0]}

def emit(**values):
    print("RESULT " + json.dumps(values), flush=True)
"""


@pytest.fixture(scope="session")
def user_extension_jar(workdir: Path) -> Path:
    """A user's own Spark extension (a jar compiled here), to prove colsem merges, not replaces.
    It registers the function user_ext_marker() returning 'user-extension'."""
    import pyspark
    from build_jar_access import compile_scala

    source = workdir / "UserExtension.scala"
    source.write_text(
        textwrap.dedent("""\
        package com.example
        import org.apache.spark.sql.SparkSessionExtensions
        import org.apache.spark.sql.catalyst.FunctionIdentifier
        import org.apache.spark.sql.catalyst.expressions.{Expression, ExpressionInfo, Literal}
        class UserExtension extends (SparkSessionExtensions => Unit) {
          override def apply(e: SparkSessionExtensions): Unit =
            e.injectFunction((FunctionIdentifier("user_ext_marker"),
              new ExpressionInfo(classOf[UserExtension].getName, "user_ext_marker"),
              (_: Seq[Expression]) => Literal("user-extension")))
        }
        """)
    )
    jars = Path(pyspark.__file__).parent / "jars"
    return compile_scala([source], jars, workdir / "user-extension.jar")
