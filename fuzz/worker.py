"""A Spark JVM for the fuzzer, driven over stdin/stdout with one JSON object per line.

    python -m fuzz.worker colsem|vanilla WAREHOUSE [golden]

`colsem` builds its session with colsem.configure; `vanilla` expects COLSEM_AUTOREGISTER=0 in its
environment and never imports colsem, so the extension is not loaded at all. Requests:
{"op": "setup", "tables": {name: CREATE statement}} creates database `fuzz` with the tables;
{"op": "run", "sql", "session", "conf", "collect"} runs one query in a named session (created
with newSession() and `conf` on first use) and answers its schema and rows, or its error;
{"op": "golden", "statements"} answers tests/golden.py's rendering of the statements run in a
new session on a new database (for saving regression tests)."""

from __future__ import annotations

import json
import logging
import sys
import traceback
from pathlib import Path
from typing import Any, Dict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def error_of(exc: BaseException) -> Dict[str, Any]:
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    from golden import condition

    cls, state, message = type(exc).__name__, None, str(exc)
    if isinstance(exc, PySparkException):
        cls = condition(exc) or cls
        state = exc.getSqlState()
    elif isinstance(exc, Py4JJavaError):
        java = exc.java_exception
        message = java.toString()
        cls = java.getClass().getName()
        try:
            cls = condition(java) or cls
            state = java.getSqlState()
        except Exception:  # not a SparkThrowable (StackOverflowError, ...)
            pass
    return {"class": cls, "state": state, "message": message[:800]}


def main() -> None:
    mode, warehouse = sys.argv[1], sys.argv[2]
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    from pyspark.sql import SparkSession

    from fuzz.values import canon_row

    # Small and fast: one core, one shuffle partition, no adaptive re-planning and interpreted
    # expressions (compiling code for each new query costs more than running it on 8 rows).
    # Both JVMs run with the same settings.
    # A golden worker (writing expected output for tests/sql) is set up as tests/conftest.py's
    # session is, and caches nothing.
    golden_mode = len(sys.argv) > 3 and sys.argv[3] == "golden"
    builder = (SparkSession.builder.master("local[2]" if golden_mode else "local[1]")
               .appName(f"colsem-fuzz-{mode}").config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.warehouse.dir", warehouse)
               # Spark's parser keeps an ANTLR DFA cache that grows with every distinct SQL text:
               # after 8,000 queries it held 350 MB of a 1 GB heap (1,700 full collections, the
               # run slowing from 4.4 to 1.6 queries/s). 3 GB keeps a 10,000-query run steady.
               .config("spark.driver.memory", "3g"))
    if golden_mode:
        builder = builder.config("spark.sql.shuffle.partitions", "2")
    else:
        builder = (builder.config("spark.sql.shuffle.partitions", "1")
                   .config("spark.sql.adaptive.enabled", "false")
                   .config("spark.sql.codegen.wholeStage", "false")
                   .config("spark.sql.codegen.factoryMode", "NO_CODEGEN"))
    if mode == "colsem":
        import colsem

        colsem.configure(builder)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("OFF")
    loaded = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
    sessions: Dict[str, Any] = {}
    golden_count = 0

    def session(name: str, conf: Dict[str, str]):
        if name not in sessions:
            s = spark if name == "default" else spark.newSession()
            for k, v in conf.items():
                s.conf.set(k, v)
            s.sql("USE fuzz")
            sessions[name] = s
        return sessions[name]

    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "setup":
            spark.sql("CREATE DATABASE IF NOT EXISTS fuzz")
            spark.sql("USE fuzz")
            locations = {}
            for name, create in req["tables"].items():
                spark.sql(create)
                if not golden_mode:
                    spark.sql(f"CACHE TABLE {name}")  # scans read memory, not parquet files
                locations[name] = spark.sql(f"DESCRIBE TABLE EXTENDED {name}").where(
                    "col_name = 'Location'").collect()[0]["data_type"]
            status = {}
            if loaded:
                status = {r["key"]: r["value"] for r in spark.sql("SELECT key, value FROM colsem_status()").collect()}
            sessions["default"] = spark
            answer: Dict[str, Any] = {"loaded": loaded, "status": status, "locations": locations,
                                      "spark": spark.version}
        elif op == "run":
            try:
                s = session(req.get("session", "default"), req.get("conf") or {})
                df = s.sql(req["sql"])
                schema = [[f.name, f.dataType.simpleString(), f.nullable,
                           json.dumps(f.metadata, sort_keys=True)] for f in df.schema.fields]
                answer = {"schema": schema}
                if req.get("collect", True):
                    answer["rows"] = [canon_row(r) for r in df.collect()]
            except Exception as exc:  # every failure is an answer
                answer = {"error": error_of(exc)}
        elif op == "golden":
            from golden import render, run_statement

            golden_count += 1
            s = spark.newSession()
            s.sql(f"CREATE DATABASE golden{golden_count}")
            s.sql(f"USE golden{golden_count}")
            answer = {"text": "\n".join(render(q, run_statement(s, q)) for q in req["statements"])}
        else:
            answer = {"error": {"class": "BAD_REQUEST", "state": None, "message": op}}
        answer["id"] = req.get("id")
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
