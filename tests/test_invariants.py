"""Schema invariants (spark.colsem.invariants): deliberately broken optimizer rules, planner
strategies and physical rules, injected through SparkSessionExtensions from a jar compiled here
(tests/extensions/BrokenRules.scala), each caught in `warn` and `error` mode at the rule that broke
it. One fresh JVM loads every broken rule; each is switched on by its own spark.broken.* key.
Invariants 1 and 2 with plain SQL are in tests/sql/inputs/invariants.sql."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import SESSION_PRELUDE, TESTS, result_of, run_python
from golden import running_line

LINE = running_line()
# DataFrame.toArrow is new in PySpark 4.0.
READERS = ["collect", "toPandas"] + ([] if LINE == "3.5" else ["toArrow"])

SCRIPT = (
    SESSION_PRELUDE
    + """
import colsem
from pyspark.sql import DataFrame

jar, warehouse, cases, settings = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
builder = local_builder().config("spark.sql.warehouse.dir", warehouse)
for key, value in {"spark.jars": jar, "spark.sql.extensions": "com.example.broken.BrokenRules",
                   **settings}.items():
    builder = builder.config(key, value)
spark = colsem.configure(builder).getOrCreate()
spark.sql("CREATE TABLE t1 (s1 INT, s2 STRING) USING parquet")
spark.sql("INSERT INTO t1 VALUES (1, 'a'), (2, 'b')")
marker = spark._jvm.org.slf4j.LoggerFactory.getLogger("io.colsem.test")

def outcome(run):
    try:
        return run()
    except Exception as exc:
        # getCondition() in PySpark 4, getErrorClass() in 3.5.
        condition = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
        if condition is None:  # a JVM failure PySpark does not convert
            java = getattr(exc, "java_exception", None)
            text = str(java if java is not None else exc)
            causes = []  # the JVM exception's causes, outermost first
            while java is not None and len(causes) < 10:
                causes.append(java.toString())
                java = java.getCause()
            return {"error": "JVM", "message": text.splitlines()[0][:300], "causes": causes}
        return {"error": condition(), "sqlState": exc.getSqlState(),
                "parameters": dict(exc.getMessageParameters() or {})}

results, plans = {}, {}
for name, conf, sql, actions in cases:
    for mode in ("off", "warn", "error"):
        for action in actions:
            session = spark.newSession()
            session.conf.set("spark.colsem.invariants", mode)
            for key, value in conf.items():
                session.conf.set(key, value)
            if action == "toArrow" and not hasattr(DataFrame, "toArrow"):
                continue  # PySpark 3.5 has no DataFrame.toArrow
            marker.warn(f"CASE {name}/{mode}/{action}")
            def run():
                df = session.sql(sql)
                if action == "collect":
                    rows = [list(r) for r in df.collect()]
                elif action == "toPandas":
                    session.conf.set("spark.sql.execution.arrow.pyspark.enabled", "true")
                    session.conf.set("spark.sql.execution.arrow.pyspark.fallback.enabled", "false")
                    rows = df.toPandas().values.tolist()
                else:
                    table = df.toArrow()
                    rows = [list(r.values()) for r in table.to_pylist()]
                plans[f"{name}/{mode}/{action}"] = df._jdf.queryExecution().executedPlan().toString()
                return {"schema": df.schema.simpleString(), "rows": rows}
            results[f"{name}/{mode}/{action}"] = outcome(run)
marker.warn("CASE end")

def classes(rules):
    return [rules.apply(i).getClass().getName() for i in range(rules.length())]

state = spark._jsparkSession.sessionState()
emit(results=results, plans=plans, columnar_rules=classes(state.columnarRules()),
     stage_prep_rules=classes(state.adaptiveRulesHolder().queryStagePrepRules()))
"""
)

# name, broken-rule settings, query, how its result is read
CASES = [
    ("qualify_names", {"spark.broken.qualifyNames": "1"}, "SELECT t1.s1, s2 FROM t1", ["collect"]),
    (
        "drop_column",
        {"spark.broken.dropColumn": "u"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        ["collect"],
    ),
    (
        "rename_column",
        {"spark.broken.renameColumn": "u:x"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        ["collect"],
    ),
    (
        "reorder_projection",
        {"spark.broken.reorder": "1"},
        "SELECT s1, upper(s2) AS u FROM t1",
        ["collect"],
    ),
    (
        "widen_nullability",
        {"spark.broken.widenNullability": "id"},
        "SELECT id, id + 1 AS j FROM range(3)",
        ["collect"],
    ),
    (
        "strategy_rename",
        {"spark.broken.strategyRename": "u:x"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        ["collect"],
    ),
    (
        "physical_drop",
        {"spark.broken.physicalDrop": "s1", "spark.sql.adaptive.forceApply": "true"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        ["collect"],
    ),
    (
        "physical_reorder",
        {"spark.broken.physicalReorder": "1"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        ["collect"],
    ),
    (
        "lying_exec",
        {"spark.broken.lyingExec": "1"},
        "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0",
        READERS,
    ),
    ("healthy", {}, "SELECT s1, upper(s2) AS u FROM t1 WHERE s1 > 0 ORDER BY s1", READERS),
]


def compile_broken_rules(workdir: Path) -> Path:
    """tests/extensions/BrokenRules.scala as a jar, against the running pyspark's jars."""
    import pyspark
    from build_jar_access import compile_scala

    return compile_scala(
        [TESTS / "extensions" / "BrokenRules.scala"],
        Path(pyspark.__file__).parent / "jars",
        workdir / "broken-rules.jar",
    )


@pytest.fixture(scope="module")
def broken_jar(workdir: Path) -> Path:
    return compile_broken_rules(workdir)


def run_cases(
    broken_jar: Path, workdir: Path, log4j_file: Path, settings: dict[str, str], name: str
) -> dict:
    """Every case in a fresh JVM whose builder gets ``settings`` over the broken rules' jar and
    extension (colsem.configure then appends colsem): each case's outcome, executed plan and
    colsem warnings, and the session's columnar and query-stage preparation rules in order."""
    warehouse = workdir / f"{name}-warehouse"
    proc = run_python(
        SCRIPT,
        args=[str(broken_jar), str(warehouse), json.dumps(CASES), json.dumps(settings)],
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_SUBMIT_ARGS": f"--driver-java-options -Dlog4j2.configurationFile={log4j_file} pyspark-shell",
        },
        timeout=600,
    )
    run = result_of(proc)
    (workdir / f"{name}-outcomes.json").write_text(json.dumps(run["results"], indent=1))
    # The colsem warnings logged while each case ran, between the markers the script logs.
    warnings: dict[str, list] = {}
    current = None
    for line in proc.stderr.splitlines():
        marker = re.match(r"WARN test: CASE (\S+)", line)
        if marker:
            current = marker.group(1)
            warnings[current] = []
        elif current and "COLSEM_" in line and line.startswith("WARN"):
            warnings[current].append(line)
    return {**run, "warnings": warnings}


@pytest.fixture(scope="module")
def outcomes(broken_jar: Path, workdir: Path, log4j_file: Path) -> dict[str, dict]:
    return run_cases(broken_jar, workdir, log4j_file, {}, "invariants")


def error(invariant: int, culprit: str, problem: str, diff: str) -> dict:
    statements = {
        1: "output names never carry a relation qualifier",
        3: "planning keeps the physical schema",
        4: "execution keeps the physical schema",
        5: "logical optimization keeps the schema",
        6: "physical optimization keeps the schema",
    }
    return {
        "error": "COLSEM_SCHEMA_INVARIANT_VIOLATED",
        "sqlState": "XX000",
        "parameters": {
            "invariant": str(invariant),
            "statement": statements[invariant],
            "culprit": culprit,
            "problem": problem,
            "diff": diff,
        },
    }


OPERATOR_BATCH = "(batch 'Operator Optimization before Inferring Filters')"
# The binding failure a renamed column causes far from the rule that renamed it, in each line's words.
MISSING_ATTRIBUTE = {
    "jvm": {
        "3.5": "java.lang.IllegalStateException: Couldn't find u#",
        "4.0": "org.apache.spark.SparkException: [INTERNAL_ERROR] Couldn't find u#",
    }.get(LINE, "org.apache.spark.SparkException: [INTERNAL_ERROR_ATTRIBUTE_NOT_FOUND]")
}
CORRUPT = {"schema": "struct<s1:int,u:string>", "corrupt": [[1, "A"], [2, "B"]]}
# What each broken rule does to the query with invariants off (silently), and the error it gets
# with them on.
EXPECTED = {
    "qualify_names": (
        {"schema": "struct<t1.s1:int,t1.s2:string>", "rows": [[1, "a"], [2, "b"]]},
        error(
            1,
            "analysis (the analyzer or a rule that names output columns)",
            "output column 1 is named `t1.s1`, which carries the qualifier `t1` of column `s1`; "
            "a generated name must be `s1`-based without the relation (write AS `t1.s1` to "
            "choose a dotted name)",
            "analyzed output (`t1.s1` INT, `t1.s2` STRING)",
        ),
    ),
    "drop_column": (
        {"schema": "struct<s1:int,u:string>", "rows": [[1], [2]]},
        error(
            5,
            f"optimizer rule com.example.broken.DropColumn {OPERATOR_BATCH}",
            "`u` was dropped",
            "analyzed (`s1` INT, `u` STRING); optimized (`s1` INT)",
        ),
    ),
    "rename_column": (
        MISSING_ATTRIBUTE,
        error(
            5,
            f"optimizer rule com.example.broken.RenameColumn {OPERATOR_BATCH}",
            "`u` was renamed to `x`",
            "analyzed (`s1` INT, `u` STRING); optimized (`s1` INT, `x` STRING)",
        ),
    ),
    "reorder_projection": (
        CORRUPT,
        error(
            5,
            f"optimizer rule com.example.broken.ReorderProjection {OPERATOR_BATCH}",
            "the fields were reordered from (`s1`, `u`) to (`u`, `s1`)",
            "analyzed (`s1` INT, `u` STRING); optimized (`u` STRING, `s1` INT)",
        ),
    ),
    "widen_nullability": (
        {"schema": "struct<id:bigint,j:bigint>", "rows": [[0, 1], [1, 2], [2, 3]]},
        error(
            5,
            f"optimizer rule com.example.broken.WidenNullability {OPERATOR_BATCH}",
            "`id` became nullable (it was NOT NULL)",
            "analyzed (`id` BIGINT NOT NULL, `j` BIGINT NOT NULL); optimized (`id` BIGINT, `j` BIGINT NOT NULL)",
        ),
    ),
    "strategy_rename": (
        MISSING_ATTRIBUTE,
        error(
            3,
            "planner strategy com.example.broken.RenamingProjectStrategy (it planned Project "
            "as Project)",
            "`u` was renamed to `x`",
            "analyzed (`s1` INT, `u` STRING); planned (`s1` INT, `x` STRING)",
        ),
    ),
    "physical_drop": (
        CORRUPT,
        error(
            6,
            "physical rule com.example.broken.DropPhysicalColumn",
            "`s1` was dropped",
            "planned (`s1` INT, `u` STRING); prepared (`u` STRING)",
        ),
    ),
    "physical_reorder": (
        CORRUPT,
        error(
            6,
            "columnar rule com.example.broken.ReorderPhysicalProjection (preColumnarTransitions)",
            "the fields were reordered from (`s1`, `u`) to (`u`, `s1`)",
            "planned (`s1` INT, `u` STRING); prepared (`u` STRING, `s1` INT)",
        ),
    ),
    "lying_exec": (
        CORRUPT,
        error(
            4,
            "execution (rows produced by LyingProject)",
            "a row has 1 fields where the plan declares 2",
            "declared (`s1` INT, `u` STRING)",
        ),
    ),
}


def message(expected: dict) -> str:
    p = expected["parameters"]
    return (
        f"[COLSEM_SCHEMA_INVARIANT_VIOLATED] Schema invariant {p['invariant']} ({p['statement']}) "
        f"was broken by {p['culprit']}: {p['problem']}. Schemas: {p['diff']}."
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_error_mode_fails_the_query_naming_invariant_rule_and_diff(outcomes, name):
    _, expected = EXPECTED[name]
    actions = next(c[3] for c in CASES if c[0] == name)
    for action in actions:
        actual = outcomes["results"][f"{name}/error/{action}"]
        if LINE == "3.5" and name == "lying_exec":
            # Found while a task produces rows: Spark 3.5 reports a task's failure as a plain
            # SparkException ("Job aborted due to stage failure" from collect, "Exception thrown in
            # awaitResult" from the Arrow path) with the task's error inside, not as the task's
            # error class (4.x does).
            assert actual["error"] == "JVM", (action, actual)
            assert actual["message"].startswith("org.apache.spark.SparkException: "), (
                action,
                actual,
            )
            assert any(message(expected) in cause for cause in actual["causes"]), (action, actual)
        else:
            assert actual == expected, action


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_off_the_broken_rule_does_its_damage_silently(outcomes, name):
    silent, _ = EXPECTED[name]
    off = outcomes["results"][f"{name}/off/collect"]
    if "jvm" in silent:  # an internal error far from the rule that caused it
        assert off["error"] == "JVM" and off["message"].startswith(silent["jvm"]), off["message"]
    elif "corrupt" in silent:  # the declared schema, with rows that do not fit it
        assert off["schema"] == silent["schema"] and off["rows"] != silent["corrupt"], off
    else:
        assert off == silent
    assert outcomes["warnings"][f"{name}/off/collect"] == []


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_warn_mode_logs_once_per_query_and_runs_it(outcomes, name):
    _, expected = EXPECTED[name]
    actions = next(c[3] for c in CASES if c[0] == name)
    for action in actions:
        off = outcomes["results"][f"{name}/off/{action}"]
        warn = outcomes["results"][f"{name}/warn/{action}"]
        assert warn.get("error") == off.get("error") and warn.get("schema") == off.get("schema")
        logged = outcomes["warnings"][f"{name}/warn/{action}"]
        assert len(logged) == 1, (action, logged)
        assert re.match(r"WARN (Invariants|CheckedOutputExec): ", logged[0]), logged[0]
        assert message(expected) in logged[0]
        assert logged[0].endswith(" SQLSTATE: XX000")


def test_a_healthy_query_passes_every_check_and_every_reader(outcomes):
    for mode in ("off", "warn", "error"):
        for action in READERS:
            assert outcomes["results"][f"healthy/{mode}/{action}"] == {
                "schema": "struct<s1:int,u:string>",
                "rows": [[1, "A"], [2, "B"]],
            }, (mode, action)
            assert outcomes["warnings"][f"healthy/{mode}/{action}"] == []


def test_default_is_off_and_status_lists_it(spark):
    import colsem

    assert colsem.status(spark)["spark.colsem.invariants"] == "off"


@pytest.mark.parametrize(
    "sql", ["DESCRIBE t1", "DESCRIBE TABLE EXTENDED t1 s1", "SHOW COLUMNS IN t1"]
)
def test_command_results_keep_their_table_layout(spark, sql):
    """A command's rows keep the root node by which the spark-sql CLI, the Thrift server and
    Spark's golden files lay them out as a table (Spark's SQL corpus found DESCRIBE EXTENDED rows
    tab-separated under `error`)."""
    session = spark.newSession()
    hive = session._jvm.org.apache.spark.sql.execution.HiveResult

    def layout() -> str:
        return hive.hiveResultString(
            session.sql(sql)._jdf.queryExecution().executedPlan()
        ).mkString("\n")

    session.conf.set("spark.colsem.invariants", "off")
    expected = layout()
    for mode in ("warn", "error"):
        session.conf.set("spark.colsem.invariants", mode)
        assert layout() == expected, mode


@pytest.mark.parametrize("mode", ["", "EXTENDED", "FORMATTED"])
def test_explain_shows_sparks_plan(spark, mode):
    """EXPLAIN describes a query that never runs: no CheckedOutput at its root, the text as with
    invariants off (Spark's SQL corpus found explain.sql and explain-aqe.sql showing it)."""
    session = spark.newSession()
    sql = f"EXPLAIN {mode} SELECT s1, max(s3) FROM t1 WHERE s1 > 0 GROUP BY s1"

    def text() -> str:
        return re.sub(r"#\d+|plan_id=\d+", "#x", session.sql(sql).collect()[0][0])

    session.conf.set("spark.colsem.invariants", "off")
    expected = text()
    for invariants in ("warn", "error"):
        session.conf.set("spark.colsem.invariants", invariants)
        assert "CheckedOutput" not in text()
        assert text() == expected, invariants


def test_colsem_rules_follow_the_extensions_listed_before_it(outcomes):
    """docs/invariants.md, "Beside other extensions": each list of injected physical rules is in
    the order of spark.sql.extensions (colsem.configure appended colsem after the broken rules)."""
    assert outcomes["stage_prep_rules"] == [
        "com.example.broken.DropPhysicalColumn",
        "io.colsem.invariants.CheckPreparedSchemaAdaptive",
    ]
    assert outcomes["columnar_rules"] == [
        "com.example.broken.ReorderPhysicalProjection",
        "io.colsem.invariants.ShipJarToExecutors",
        "io.colsem.invariants.InsertCheckedOutput",
        "io.colsem.invariants.CheckPreparedSchemaColumnar",
    ]
