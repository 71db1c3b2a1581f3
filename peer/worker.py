"""A Spark JVM running corpus files, driven over stdin/stdout with one JSON object per line.

    python -m peer.worker colsem|vanilla WAREHOUSE CORPUS_FOLDER [JSON_CONF]

JSON_CONF: settings of the JVM (colsem's settings of the run: in the SparkConf, so that a file's
RESET returns to them).

Requests:
{"op": "setup"} creates the suite's test tables (testdata, arraydata, mapdata, aggtest, onek,
tenk1) in `default` and answers the Spark version and whether colsem is loaded;
{"op": "begin", "conf", "python_udfs"} opens a new session for one file with those settings;
{"op": "run", "sql"} runs one statement in it and answers its outcome (`answer`);
{"op": "rerun", "sql"} runs a read-only query again (for nondeterminism) or answers
{"skipped": reason};
{"op": "end"} drops what the file created (databases, tables, views, functions, global temp
views, cached data) and restores the test tables if the file dropped one."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from sparkpipe.session import builder as session_builder, error_of, run, serve

TEST_TABLES = ("testdata", "arraydata", "mapdata", "aggtest", "onek", "tenk1")
SEP = "\u0001\u0002"        # between hiveResultString lines (a row may hold newlines)
HEAD_ROWS = 10
# A metadata statement's answer is kept whole (up to METADATA_LINES lines): under a naming dialect
# a view stores the dialect's names, and peer/compare.py checks its DESCRIBE/SHOW text line by line.
METADATA = re.compile(r"^\s*(DESC|DESCRIBE|SHOW)\b", re.I)
METADATA_LINES = 500

# The suite's settings (SQLQueryTestSuite.sparkConf: 4 shuffle partitions, the Java 8 time API;
# its golden files are in America/Los_Angeles) and the fuzzer's speed settings (interpreted
# expressions, no adaptive re-planning: compiling code costs more than running it on the corpus's
# small tables). A file's own --SET/--CONFIG_DIM settings override these in its session.
JVM_CONF = {
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.datetime.java8API.enabled": "true",
    "spark.sql.session.timeZone": "America/Los_Angeles",
    "spark.driver.extraJavaOptions": "-Duser.timezone=America/Los_Angeles -Duser.language=en -Duser.country=US",
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
}
TABLE_SCHEMA = ("unique1 int, unique2 int, two int, four int, ten int, twenty int, hundred int, "
                "thousand int, twothousand int, fivethous int, tenthous int, odd int, even int, "
                "stringu1 string, stringu2 string, string4 string")

# Output that legitimately differs between two JVMs, masked as SQLQueryTestHelper masks it
# (own patterns, same targets): the warehouse folder, times, owners, expression and plan ids.
MASKS = [
    (re.compile(r"#\d+"), "#x"),
    (re.compile(r"plan_id=\d+"), "plan_id=x"),
    (re.compile(r"Created By.*"), "Created By [masked]"),
    (re.compile(r"Created Time.*"), "Created Time [masked]"),
    (re.compile(r"Last Access.*"), "Last Access [masked]"),
    (re.compile(r"Owner.*"), "Owner [masked]"),
    (re.compile(r"Partition Statistics\t\d+"), "Partition Statistics\t[masked]"),
    (re.compile(r"(?i)(CTERelation(?:Def|Ref)) \d+,"), r"\1 x,"),
    (re.compile(r"UnionLoop(Ref)? \d+"), r"UnionLoop\1 x"),
    (re.compile(r"Loop id: \d+"), "Loop id: x"),
    (re.compile(r"@\w*,"), "@x,"),
    (re.compile(r"\*\(\d+\) "), "*"),
    (re.compile(r"transient_lastDdlTime=\d+"), "transient_lastDdlTime=[masked]"),
    (re.compile(r'"(created_by|created_time|last_access|owner)":"[^"]*"'), r'"\1":"[masked]"'),
    (re.compile(r'"transient_lastDdlTime":"\d+"'), '"transient_lastDdlTime":"[masked]"'),
    (re.compile(r'"partition_statistics":"\d+"'), '"partition_statistics":"[masked]"'),
]
READ_ONLY = re.compile(r"^\s*\(*\s*(SELECT|WITH|VALUES|FROM|TABLE)\b", re.I)


class Jvm:
    def __init__(self, spark: Any, warehouse: str, corpus: Path):
        self.spark, self.corpus = spark, corpus
        self.jvm = spark._jvm
        self.warehouse = [w for w in {warehouse, str(Path(warehouse).resolve())}]
        self.session: Optional[Any] = None
        self.snapshot: Dict[str, Any] = {}
        self.class_chains: Dict[str, List[str]] = {}
        self.log_path = os.environ.get("SPARKPIPE_LOG")
        self.log_offset = 0

    # -- test tables
    def create_test_tables(self) -> None:
        s = self.spark
        existing = {t.name for t in s.catalog.listTables("default")}
        data = self.corpus / "test-data" / "postgresql"
        sql = {
            "testdata": "SELECT CAST(id AS INT) AS key, CAST(id AS STRING) AS value FROM range(1, 101)",
            "arraydata": "SELECT * FROM VALUES (array(1, 2, 3), array(array(1, 2, 3))), "
                         "(array(2, 3, 4), array(array(2, 3, 4))) AS t(arraycol, nestedarraycol)",
            "mapdata": "SELECT * FROM VALUES (map(1, 'a1', 2, 'b1', 3, 'c1', 4, 'd1', 5, 'e1')), "
                       "(map(1, 'a2', 2, 'b2', 3, 'c2', 4, 'd2')), (map(1, 'a3', 2, 'b3', 3, 'c3')), "
                       "(map(1, 'a4', 2, 'b4')), (map(1, 'a5')) AS t(mapcol)",
        }
        for name in TEST_TABLES:
            if name in existing:
                continue
            if name in sql:
                df = s.sql(sql[name])
            else:
                schema = "a int, b float" if name == "aggtest" else TABLE_SCHEMA
                file = {"aggtest": "agg.data", "onek": "onek.data", "tenk1": "tenk.data"}[name]
                df = (s.read.format("csv").options(delimiter="\t", header="false").schema(schema)
                      .load(str(data / file)))
            df.repartition(1).write.format("parquet").saveAsTable(f"default.{name}")

    # -- one file
    def catalog_state(self) -> Dict[str, Any]:
        ext = self.spark._jsparkSession.sharedState().externalCatalog()
        dbs = list(_seq(ext.listDatabases()))
        return {"dbs": dbs,
                "tables": {db: set(_seq(ext.listTables(db))) for db in dbs},
                "functions": {db: set(_seq(ext.listFunctions(db, "*"))) for db in dbs}}

    def begin(self, conf: Dict[str, str], python_udfs: bool) -> Dict[str, Any]:
        self.snapshot = self.catalog_state()
        s = self.spark.newSession()
        failed = {}
        for k, v in conf.items():
            try:
                s.conf.set(k, v)
            except Exception as exc:  # a static conf: the suite's SET would fail the same way
                failed[k] = error_of(exc)["class"]
        if python_udfs:  # what the suite registers as Scala UDFs for postgreSQL/
            s.udf.register("booleq", lambda a, b: None if a is None or b is None else a == b, "boolean")
            s.udf.register("boolne", lambda a, b: None if a is None or b is None else a != b, "boolean")
            s.udf.register("vol", lambda x: x, "string")
        self.session = s
        self.read_log()
        return {"ok": True, "conf_failed": failed}

    def end(self) -> Dict[str, Any]:
        self.session = None
        before, self.snapshot = self.snapshot, {}
        if not before:  # no file begun in this JVM (it was restarted): nothing of a file's here
            return {"ok": True, "dropped": []}
        ext = self.spark._jsparkSession.sharedState().externalCatalog()
        now = self.catalog_state()
        dropped: List[str] = []
        for db in now["dbs"]:
            if db not in before.get("dbs", []):
                ext.dropDatabase(db, True, True)
                dropped.append(db)
                continue
            for t in now["tables"][db] - before["tables"].get(db, set()):
                ext.dropTable(db, t, True, True)
                dropped.append(f"{db}.{t}")
            for f in now["functions"][db] - before["functions"].get(db, set()):
                ext.dropFunction(db, f)
                dropped.append(f"{db}.{f}()")
        for row in self.spark.sql("SHOW VIEWS IN global_temp").collect():
            if row["isTemporary"] and (row["namespace"] or "") == "global_temp":
                self.spark.catalog.dropGlobalTempView(row["viewName"])
        self.spark.catalog.clearCache()
        self.create_test_tables()
        return {"ok": True, "dropped": dropped}

    # -- statements
    def run(self, sql: str) -> Dict[str, Any]:
        if self.session is None:
            return {"error": {"class": "NO_SESSION", "state": None, "message": "no file begun"}}
        try:
            df = self.session.sql(sql)
            jdf = df._jdf
            qe = jdf.queryExecution()
            schema = [[f.name, f.dataType.simpleString(), f.nullable,
                       json.dumps(f.metadata, sort_keys=True), f.dataType.json()] for f in df.schema.fields]
            plan = qe.executedPlan()
            text = self.jvm.org.apache.spark.sql.execution.HiveResult.hiveResultString(plan).mkString(SEP)
            lines = [self.mask(l) for l in text.split(SEP)] if text else []
            ordered = len(lines) > 1 and self.sorted_plan(qe.analyzed())
            if not ordered:
                lines.sort()
            answer = {"schema": schema, "row_count": len(lines), "ordered": ordered,
                      "rows_hash": hashlib.sha1("\n".join(lines).encode()).hexdigest(),
                      "rows": [l[:300] for l in lines[:HEAD_ROWS]]}
            if METADATA.match(sql) and len(lines) <= METADATA_LINES:
                answer["lines"] = lines
        except Exception as exc:  # every failure is an answer
            err = error_of(exc)
            err["message"] = self.mask(err["message"])[:500]
            answer = {"error": err}
        reports = self.read_log()
        if reports:
            answer["reports"] = reports
        return answer

    def rerun(self, sql: str) -> Dict[str, Any]:
        """Runs a query again if it only reads (the suite's test: the parsed plan is no Command)."""
        if self.session is None or not READ_ONLY.match(sql):
            return {"skipped": "not a query"}
        try:
            parsed = self.session._jsparkSession.sessionState().sqlParser().parsePlan(sql)
        except Exception:
            return {"skipped": "does not parse"}
        if any(n.endswith(("Command", "Statement")) for n in self.chain(parsed)):
            return {"skipped": "a command"}
        return self.run(sql)

    def mask(self, line: str) -> str:
        for w in self.warehouse:
            line = line.replace(w, "{warehouse}")
        for pattern, repl in MASKS:
            line = pattern.sub(repl, line)
        return line

    def chain(self, obj: Any) -> List[str]:
        """Simple names of an object's classes and interfaces (cached per class)."""
        cls = obj.getClass()
        key = cls.getName()
        if key not in self.class_chains:
            names = []
            c = cls
            while c is not None:
                names.append(c.getSimpleName())
                names += [i.getSimpleName() for i in c.getInterfaces()]
                c = c.getSuperclass()
            self.class_chains[key] = names
        return self.class_chains[key]

    def sorted_plan(self, plan: Any) -> bool:
        """Whether the analyzed plan promises an order (the suite's isSemanticallySorted: no for a
        Join, Aggregate, Generate, Sample or Distinct; yes for a DESCRIBE; yes when a global Sort
        lies under Projects and Filters only; else whether a child is sorted)."""
        names = self.chain(plan)
        if {"Join", "Aggregate", "Generate", "Sample", "Distinct"} & set(names):
            return False
        if {"DescribeCommandBase", "DescribeColumnCommand", "DescribeRelation", "DescribeColumn"} & set(names):
            return True
        node = plan
        while True:
            n = self.chain(node)
            if "Project" in n or "Filter" in n or "ResolvedHint" in n:
                node = node.child()
                continue
            if "Sort" in n and getattr(node, "global")():
                return True
            break
        children = plan.children()
        return any(self.sorted_plan(children.apply(i)) for i in range(children.size()))

    def read_log(self) -> List[str]:
        """colsem's invariant reports the JVM logged since the last call (warn mode)."""
        if not self.log_path:
            return []
        try:
            with open(self.log_path, errors="replace") as f:
                f.seek(self.log_offset)
                text = f.read()
                self.log_offset = f.tell()
        except OSError:
            return []
        return [l.strip()[l.find("[COLSEM_"):][:600] for l in text.split("\n") if "[COLSEM_" in l]


def _seq(scala_seq: Any) -> List[Any]:
    return [scala_seq.apply(i) for i in range(scala_seq.size())]


def main() -> None:
    mode, warehouse, corpus = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    extra = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the postgreSQL/ helper UDFs' Python workers
    spark = session_builder(mode, "colsem-peer", warehouse, "local[1]", {**JVM_CONF, **extra}).getOrCreate()
    spark.sparkContext.setLogLevel("OFF")
    jvm = spark._jvm
    if mode == "colsem":  # invariant reports of `warn` mode reach the log (read per statement)
        try:
            jvm.org.apache.logging.log4j.core.config.Configurator.setLevel(
                "io.colsem", jvm.org.apache.logging.log4j.Level.WARN)
        except Exception:
            pass
    # The suite runs as user test_user (current_user()); both JVMs run as this process's user.
    worker = Jvm(spark, warehouse, corpus)

    def handle(req: Dict[str, Any]) -> Dict[str, Any]:
        op = req["op"]
        try:
            if op == "setup":
                worker.create_test_tables()
                loaded = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
                answer = {"loaded": loaded, "spark": spark.version}
            elif op == "begin":
                answer = worker.begin(req.get("conf") or {}, bool(req.get("python_udfs")))
            elif op == "run":
                answer = worker.run(req["sql"])
            elif op == "rerun":
                answer = worker.rerun(req["sql"])
            elif op == "end":
                answer = worker.end()
            else:
                answer = {"error": {"class": "BAD_REQUEST", "state": None, "message": op}}
        except Exception as exc:
            answer = {"error": error_of(exc), "op_failed": op}
        return answer

    serve(handle)


if __name__ == "__main__":
    run(main)
