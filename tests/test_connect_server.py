"""colsem on a Spark Connect server: the jar and extension are given where the server starts, and
a Connect client (which cannot load jars) sees colsem active through SQL."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest

import colsem
from conftest import SESSION_PRELUDE, connect_server_package, result_of, run_python, stop_server


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
    cmd = [str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
           "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
           "--name", "colsem-connect-test", "--master", "local[1]", *server_jar,
           "--driver-java-options", f"-Dlog4j2.configurationFile={log4j_file}",
           "--conf", "spark.ui.enabled=false",
           "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
           "--conf", f"spark.connect.grpc.binding.port={port}",
           "--conf", f"spark.sql.warehouse.dir={workdir / 'connect-warehouse'}",
           "--jars", colsem.jar_path(),
           "--conf", f"spark.sql.extensions={colsem.EXTENSION_CLASS}",
           "spark-internal"]
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 300  # a first --packages run downloads the server
    try:
        while True:
            if server.poll() is not None:
                pytest.fail(f"Connect server exited with {server.returncode}:\n"
                            + (workdir / "connect-server.log").read_text()[-4000:])
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
    proc = run_python(SESSION_PRELUDE + f"""
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
""")
    out = result_of(proc)
    assert out["connect"] == "pyspark.sql.connect.session"
    assert out["status"]["active"] == "true"
    assert out["rows"] == [["active", "true"], ["version", colsem.build_info().version]]
    assert out["configure_error"].startswith("colsem runs inside the Spark Connect server")
