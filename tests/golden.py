"""Golden SQL files in the manner of Spark's SQLQueryTestSuite: tests/sql/inputs/NAME.sql holds
statements (each ending with ';' at the end of a line), tests/sql/results/NAME.sql.out their
schema and rows, or their error class, SQLSTATE and parameters.

Beside each result, tests/sql/analyzer-results/NAME.sql.out holds the analyzed plan of every
query (as Spark keeps sql-tests/analyzer-results beside its inputs): expression ids, CTE ids and
object hashes normalised, a command recorded by its name. A change of plan shape shows there, and
the plans the rules' scaladoc draws can be read there.

The results are the newest Spark line's (`default.line` in jvm/versions.properties). Where Spark
itself answers a statement differently on another line (3.5 has no `* EXCEPT`, other error texts),
that line's reviewed output is tests/sql/results/<line>/NAME.sql.out (analyzer-results/<line>/ for
plans); docs/versions.md lists them.

Regenerate both with `make golden` (COLSEM_GOLDEN_REGENERATE=1 on the line at hand; then review the diff):
on the default line it rewrites results/NAME.sql.out; on another line it writes results/<line>/
only where the output differs from the default line's, and removes an override that no longer
differs."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

SQL_DIR = Path(__file__).resolve().parent / "sql"
INPUTS = SQL_DIR / "inputs"
RESULTS = SQL_DIR / "results"
ANALYZER_RESULTS = SQL_DIR / "analyzer-results"
VERSIONS = Path(__file__).resolve().parent.parent / "jvm" / "versions.properties"


def version_property(key: str) -> str:
    for line in VERSIONS.read_text().splitlines():
        if line.startswith(key + "="):
            return line.split("=", 1)[1].strip()
    raise ValueError(f"{VERSIONS} has no {key}")


def default_line() -> str:
    """The Spark line whose output results/NAME.sql.out holds."""
    return version_property("default.line")


def running_line() -> str:
    """The Spark line (major.minor) of the pyspark this process imports."""
    import pyspark

    return ".".join(pyspark.__version__.split(".")[:2])


def expected_result(name: str, line: str, folder: Path = RESULTS) -> Path:
    """Where the expected output of inputs/NAME.sql on Spark `line` is (in `folder`: RESULTS or
    ANALYZER_RESULTS)."""
    override = folder / line / f"{name}.sql.out"
    return override if line != default_line() and override.exists() else folder / f"{name}.sql.out"


def record_result(name: str, line: str, actual: str, folder: Path = RESULTS) -> None:
    """Regeneration: the default line's output, or another line's where it differs from that."""
    base, override = folder / f"{name}.sql.out", folder / line / f"{name}.sql.out"
    if line == default_line():
        base.parent.mkdir(parents=True, exist_ok=True)
        base.write_text(actual)
    elif base.exists() and base.read_text() == actual:
        override.unlink(missing_ok=True)
    else:
        override.parent.mkdir(parents=True, exist_ok=True)
        override.write_text(actual)


SCOPES_KEY = "spark.colsem.lateralAlias.extraScopes"
_SCOPES_STATEMENT = re.compile(
    r"(SET|RESET)\s+" + re.escape(SCOPES_KEY) + r"\s*(?:=(.*))?$", re.I | re.S
)


def scopes_in_effect(stmts: list[str]) -> list[str]:
    """Per statement, the value of spark.colsem.lateralAlias.extraScopes that the SET and RESET
    statements before it (and itself) leave: "" (the default) until one sets it."""
    out, scopes = [], ""
    for sql in stmts:
        m = _SCOPES_STATEMENT.match(sql)
        if m:
            scopes = (m.group(2) or "").strip() if m.group(1).upper() == "SET" else ""
        out.append(scopes)
    return out


def statements(text: str) -> list[str]:
    """Split on ';' at the end of a line; drop whole-line '--' comments."""
    kept = [line for line in text.splitlines() if not line.strip().startswith("--")]
    chunks = re.split(r";[ \t]*(?:\n|$)", "\n".join(kept))
    return [c.strip() for c in chunks if c.strip()]


def format_value(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else repr(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (bytes, bytearray)):  # PySpark 3.5 returns bytearray, 4.x bytes
        return repr(bytes(value))
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ",".join(f"{format_value(k)}:{format_value(v)}" for k, v in value.items()) + "}"
        )
    if hasattr(value, "asDict"):
        return "{" + ",".join(f"{k}:{format_value(v)}" for k, v in value.asDict().items()) + "}"
    return str(value)


def is_ordered(sql: str) -> bool:
    return re.search(r"\border\s+by\b", sql, re.I) is not None


def condition(exc: Any) -> str:
    """An error's class: getCondition() in Spark 4, getErrorClass() in Spark 3.5 (PySpark's
    exceptions and JVM exceptions through py4j, where every attribute looks present)."""
    try:
        return exc.getCondition()
    except Exception:  # AttributeError in PySpark 3.5, Py4JError for a 3.5 JVM exception
        return exc.getErrorClass()


def run_statement(session: Any, sql: str) -> dict:
    """Schema and rows (sorted unless the query orders them), or the error."""
    return run_with_plan(session, sql)[0]


def run_with_plan(session: Any, sql: str) -> tuple[dict, str | None]:
    """run_statement's answer and the statement's analyzed plan (None when it was refused)."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import AnalysisException, PySparkException

    try:
        df = session.sql(sql)
        rows = ["\t".join(format_value(v) for v in row) for row in df.collect()]
        result = {
            "schema": df.schema.simpleString(),
            "rows": rows if is_ordered(sql) else sorted(rows),
        }
        return result, analyzed_plan(df)
    except (AnalysisException, PySparkException) as exc:
        return {
            "error": condition(exc),
            "sqlState": exc.getSqlState(),
            "parameters": dict(sorted((exc.getMessageParameters() or {}).items())),
        }, None
    except Py4JJavaError as exc:  # JVM errors PySpark does not convert (INTERNAL_ERROR, ...)
        java = exc.java_exception
        try:
            return {
                "error": condition(java),
                "sqlState": java.getSqlState(),
                "parameters": dict(sorted(dict(java.getMessageParameters()).items())),
            }, None
        except Exception:  # no error class at all (a bug of that Spark line): its Java class
            return {"error": java.getClass().getName(), "sqlState": None, "parameters": {}}, None


# What differs between runs of the same plan (Spark's SQLQueryTestHelper normalises the same).
_PLAN_NOISE = [
    (re.compile(r"#\d+"), "#x"),
    (re.compile(r"(CTERelation(?:Def|Ref)) \d+"), r"\1 x"),
    (re.compile(r"(UnionLoop(?:Ref)?) \d+"), r"\1 x"),
    (re.compile(r"@[0-9a-f]{5,}\b"), "@x"),
    (re.compile(r"file:[^\s,\])]+"), "file:[path]"),
    (re.compile(r"plan_id=\d+"), "plan_id=x"),
]


def analyzed_plan(df: Any) -> str:
    """The analyzed plan, normalised; a command (run when the statement was read) by its name."""
    plan = df._jdf.queryExecution().analyzed()
    if plan.nodeName() == "CommandResult":
        return f"{plan.commandLogicalPlan().nodeName()} (command)"
    text = plan.toString().rstrip("\n")
    for pattern, replacement in _PLAN_NOISE:
        text = pattern.sub(replacement, text)
    return text


def render_analysis(sql: str, result: dict, plan: str | None) -> str:
    """One statement of an analyzer-results file: the statement and its analyzed plan, or the
    error class it was refused with."""
    out = ["-- !query", sql]
    if "error" in result:
        out += ["-- !query analysis error", f"{result['error']} (SQLSTATE {result['sqlState']})"]
    else:
        out += ["-- !query analysis", str(plan)]
    return "\n".join(out) + "\n"


def render(sql: str, result: dict) -> str:
    out = ["-- !query", sql]
    if "error" in result:
        out += [
            "-- !query error",
            f"{result['error']} (SQLSTATE {result['sqlState']})",
            json.dumps(result["parameters"], sort_keys=True),
        ]
    else:
        out += ["-- !query schema", result["schema"], "-- !query output"] + result["rows"]
    return "\n".join(out) + "\n"
