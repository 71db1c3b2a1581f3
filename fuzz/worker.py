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
from pathlib import Path
from typing import Any

from sparkpipe.session import builder as session_builder
from sparkpipe.session import error_of, run, serve

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    mode, warehouse = sys.argv[1], sys.argv[2]
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    from fuzz.values import canon_row

    # Small and fast: one core, one shuffle partition, no adaptive re-planning and interpreted
    # expressions (compiling code for each new query costs more than running it on 8 rows).
    # Both JVMs run with the same settings.
    # A golden worker (writing expected output for tests/sql) is set up as tests/conftest.py's
    # session is, and caches nothing.
    golden_mode = len(sys.argv) > 3 and sys.argv[3] == "golden"
    if golden_mode:
        conf = {"spark.sql.shuffle.partitions": "2"}
    else:
        conf = {
            "spark.sql.shuffle.partitions": "1",
            "spark.sql.adaptive.enabled": "false",
            "spark.sql.codegen.wholeStage": "false",
            "spark.sql.codegen.factoryMode": "NO_CODEGEN",
        }
    builder = session_builder(
        mode, "colsem-fuzz", warehouse, "local[2]" if golden_mode else "local[1]", conf
    )
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("OFF")
    loaded = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
    sessions: dict[str, Any] = {}
    golden_count = 0

    def session(name: str, conf: dict[str, str]):
        if name not in sessions:
            s = spark if name == "default" else spark.newSession()
            for k, v in conf.items():
                s.conf.set(k, v)
            s.sql("USE fuzz")
            sessions[name] = s
        return sessions[name]

    def handle(req: dict[str, Any]) -> dict[str, Any]:
        nonlocal golden_count
        op = req["op"]
        if op == "setup":
            for key, value in (req.get("conf") or {}).items():
                spark.conf.set(key, value)
            spark.sql("CREATE DATABASE IF NOT EXISTS fuzz")
            spark.sql("USE fuzz")
            locations = {}
            for name, create in req["tables"].items():
                spark.sql(create)
                if not golden_mode:
                    spark.sql(f"CACHE TABLE {name}")  # scans read memory, not parquet files
                locations[name] = (
                    spark.sql(f"DESCRIBE TABLE EXTENDED {name}")
                    .where("col_name = 'Location'")
                    .collect()[0]["data_type"]
                )
            status = {}
            if loaded:
                status = {
                    r["key"]: r["value"]
                    for r in spark.sql("SELECT key, value FROM colsem_status()").collect()
                }
            sessions["default"] = spark
            answer: dict[str, Any] = {
                "loaded": loaded,
                "status": status,
                "locations": locations,
                "spark": spark.version,
            }
        elif op == "run":
            try:
                s = session(req.get("session", "default"), req.get("conf") or {})
                df = s.sql(req["sql"])
                schema = [
                    [
                        f.name,
                        f.dataType.simpleString(),
                        f.nullable,
                        json.dumps(f.metadata, sort_keys=True),
                    ]
                    for f in df.schema.fields
                ]
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
        return answer

    serve(handle)


if __name__ == "__main__":
    run(main)
