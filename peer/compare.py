"""Comparing one statement's two outcomes, and the few differences colsem is allowed to make.

An outcome (peer/worker.py) is {"schema": [[name, type, nullable, metadata, type json]...],
"row_count", "rows_hash", "rows" (the first rows), "ordered"} or {"error": {"class", "state",
"message"}}, plus "reports": invariant warnings colsem logged while running it."""

from __future__ import annotations

import re
from typing import Any

# Run settings: name -> colsem settings of the colsem JVM (vanilla runs none of them).
DIALECTS = ("canonical", "postgres", "mysql", "sqlite")
# A pattern no column name matches: PATTERN is on and hides nothing.
NOTHING = r"[^\s\S]"
SETTINGS: dict[str, dict[str, str]] = {
    "default": {},
    **{d: {"spark.colsem.naming.dialect": d} for d in DIALECTS},
    "star": {
        "spark.colsem.star.exclude": "TAGGED,PATTERN",
        "spark.colsem.star.excludePattern": NOTHING,
    },
    "invariants-warn": {"spark.colsem.invariants": "warn"},
    "invariants-error": {"spark.colsem.invariants": "error"},
}

# Outcome classes, in report order. `allowed_*` are the named allowed differences.
SAME_ROWS, SAME_ERROR = "same_rows", "same_error"
LATERAL = "allowed_lateral_alias"
DIALECT_NAMES, DIALECT_REFERENCE = "allowed_dialect_names", "allowed_dialect_reference"
DIALECT_PLAN_TEXT = "allowed_dialect_plan_text"
DIALECT_METADATA = "allowed_dialect_metadata"
INVARIANT_DUPLICATE = "allowed_invariant_duplicate"
NONDETERMINISTIC, SKIPPED, DIFFERENCE = "nondeterministic", "skipped", "difference"
CLASSES = [
    SAME_ROWS,
    SAME_ERROR,
    LATERAL,
    DIALECT_NAMES,
    DIALECT_REFERENCE,
    DIALECT_PLAN_TEXT,
    DIALECT_METADATA,
    INVARIANT_DUPLICATE,
    NONDETERMINISTIC,
    SKIPPED,
    DIFFERENCE,
]
ALLOWED = {
    LATERAL: "(a) vanilla refuses a lateral column alias (UNRESOLVED_COLUMN, LATERAL_COLUMN_ALIAS*, "
    "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_*, or the INTERNAL_ERROR its native support "
    "breaks with, 'Resolved plan should not contain any LateralColumnAliasReference') and "
    "colsem answers",
    DIALECT_NAMES: "(b) under a naming dialect: only output names differ (same types, nullability, "
    "metadata, rows)",
    DIALECT_REFERENCE: "(b) under a naming dialect: vanilla analyzes the statement (it answers, or "
    "fails only when it runs) and colsem refuses with UNRESOLVED_COLUMN of a name "
    "the statement writes in backquotes and does not define with AS (Spark's "
    "generated name, which the dialect renamed)",
    DIALECT_PLAN_TEXT: "(b) under a naming dialect: an EXPLAIN whose plan text differs, and which, run "
    "again in colsem's JVM with spark.colsem.naming.dialect=spark, prints vanilla's "
    "text exactly (the plan names its columns; the dialect renamed them)",
    DIALECT_METADATA: "(b) under a naming dialect: a DESCRIBE or SHOW of a relation whose column "
    "names the dialect gave (a view created under it), whose text is vanilla's line "
    "for line once each of those names (SHOW COLUMNS in colsem's JVM) is read as "
    "one vanilla name, the same everywhere, and column padding is ignored",
    INVARIANT_DUPLICATE: "(c) under invariants-*: an invariant-2 report (COLSEM_DUPLICATE_QUALIFIED_FIELD) "
    "of a duplicate (relation, name) pair whose relation the statement names",
}

LATERAL_REFUSALS = re.compile(
    r"^(UNRESOLVED_COLUMN(\..+)?|LATERAL_COLUMN_ALIAS.*|"
    r"UNSUPPORTED_FEATURE\.LATERAL_COLUMN_ALIAS_.+)$"
)
# Spark's native lateral-alias support leaves its references in the plan of a generator that
# reads an alias (`SELECT array(1, 2) AS arr, explode(arr)`), and the analyzer's last check fails.
NATIVE_LATERAL_BREAK = "should not contain any LateralColumnAliasReference"
UNRESOLVED = re.compile(r"^UNRESOLVED_COLUMN(\..+)?$")
SUGGESTIONS = re.compile(r"Did you mean one of the following\? \[(.*?)\]\.", re.S)
UNRESOLVED_NAME = re.compile(r"with name `((?:[^`]|``)+(?:`\.`(?:[^`]|``)+)*)` cannot be resolved")
DUPLICATE = "COLSEM_DUPLICATE_QUALIFIED_FIELD"
DUPLICATE_FIELD = re.compile(r"produces the field (\S+) twice")


def kind(v: dict[str, Any], c: dict[str, Any]) -> str | None:
    """None when the outcomes agree, else what differs: error_class, vanilla_only_error (colsem
    answers), colsem_only_error, schema, rows."""
    ve, ce = v.get("error"), c.get("error")
    if ve and ce:
        same = ve["class"] == ce["class"] and ve.get("state") == ce.get("state")
        return None if same else "error_class"
    if ve:
        return "vanilla_only_error"
    if ce:
        return "colsem_only_error"
    if v["schema"] != c["schema"]:
        return "schema"
    if v["rows_hash"] != c["rows_hash"]:
        return "rows"
    return None


def names_only(v: dict[str, Any], c: dict[str, Any]) -> bool:
    vs, cs = v["schema"], c["schema"]
    return (
        len(vs) == len(cs)
        and all(a[1:] == b[1:] for a, b in zip(vs, cs))
        and v["rows_hash"] == c["rows_hash"]
    )


def analysis_error(e: dict[str, Any]) -> bool:
    """Whether an error was raised by analysis (an AnalysisException), not by running the plan."""
    return (e.get("message") or "").lstrip().startswith("org.apache.spark.sql.AnalysisException")


def references_generated_name(sql: str, message: str, vanilla: dict[str, Any]) -> bool:
    """Whether the column an UNRESOLVED_COLUMN error names is Spark's generated name of an item:
    written in backquotes, as such a reference must be (`count(1)`, `1`, `concat_ws( , a, b)`),
    and not a name the statement defines with AS; or the text of an unaliased string literal
    (`SELECT 'col1' ... ORDER BY col1`) that vanilla Spark resolved to that item, or found
    ambiguous between such items."""
    m = UNRESOLVED_NAME.search(message)
    if not m:
        return False
    name = m.group(1).split("`.`")[-1].replace("``", "`")
    quoted = f"`{name.replace('`', '``')}`".lower()
    defined = re.search(rf"\bAS\s+`?{re.escape(name)}`?(?![\w$])", sql, re.I)
    if quoted in sql.lower() and defined is None:
        return True
    if renamed_cast(name, message):
        return True
    literal = re.search(
        rf"'{re.escape(name)}'(?=\s*(,|\)|$|FROM\b|WHERE\b|GROUP\b|HAVING\b|ORDER\b))", sql, re.I
    )
    if literal is None:
        return False
    if "error" in vanilla:
        e = vanilla["error"]
        return e["class"] == "AMBIGUOUS_REFERENCE" and f"`{name}`" in (e.get("message") or "")
    return any(f[0] == name for f in vanilla.get("schema", []))


def renamed_cast(name: str, message: str) -> bool:
    """Whether the error suggests a column the dialect named `CAST(name AS ...)`: an unaliased cast of
    a column, which Spark names as the column (a view's `SELECT CAST(c1 AS STRING COLLATE SR_AI)`
    is column `c1` to vanilla Spark, which later statements name)."""
    m = SUGGESTIONS.search(message)
    if not m:
        return False
    suggested = [s.replace("``", "`") for s in re.findall(r"`((?:[^`]|``)+)`", m.group(1))]
    return any(re.fullmatch(rf"CAST\({re.escape(name)} AS .+\)", s, re.I | re.S) for s in suggested)


def user_written_duplicate(sql: str, text: str) -> bool:
    """Whether an invariant-2 report is of a relation the statement names: the report's field is
    relation.name; the relation's last part must appear in the SQL as a word."""
    m = DUPLICATE_FIELD.search(text)
    if not m:
        return False
    relation = m.group(1).replace("`", "").rsplit(".", 1)[0]
    last = relation.rsplit(".", 1)[-1]
    return bool(last) and re.search(rf"(?<![\w$]){re.escape(last)}(?![\w$])", sql, re.I) is not None


def reports_allowed(sql: str, reports: list[str]) -> bool:
    return all(r.startswith(f"[{DUPLICATE}]") and user_written_duplicate(sql, r) for r in reports)


def classify(
    setting: str, sql: str, v: dict[str, Any], c: dict[str, Any]
) -> tuple[str, str | None]:
    """(outcome class, kind of difference or None). `rows` differences come back as DIFFERENCE:
    the runner runs the query again to tell NONDETERMINISTIC ones apart."""
    k = kind(v, c)
    invariants = setting.startswith("invariants")
    reports = c.get("reports") or []
    if k is None:
        if reports and invariants:
            return (
                (INVARIANT_DUPLICATE, None)
                if reports_allowed(sql, reports)
                else (DIFFERENCE, "invariant_report")
            )
        return (SAME_ERROR if "error" in v else SAME_ROWS), None
    if k == "vanilla_only_error" and (
        LATERAL_REFUSALS.match(v["error"]["class"])
        or (
            v["error"]["class"] == "INTERNAL_ERROR"
            and NATIVE_LATERAL_BREAK in v["error"].get("message", "")
        )
    ):
        return LATERAL, None
    if setting in DIALECTS:
        if k == "schema" and names_only(v, c):
            return DIALECT_NAMES, None
        vanilla_analyzed = k == "colsem_only_error" or (
            k == "error_class"
            and (not analysis_error(v["error"]) or v["error"]["class"] == "AMBIGUOUS_REFERENCE")
        )
        if (
            vanilla_analyzed
            and UNRESOLVED.match(c["error"]["class"])
            and references_generated_name(sql, c["error"].get("message", ""), v)
        ):
            return DIALECT_REFERENCE, None
    if (
        invariants
        and c.get("error", {}).get("class") == DUPLICATE
        and k in ("colsem_only_error", "error_class")
    ):
        if user_written_duplicate(sql, c["error"].get("message", "")):
            return INVARIANT_DUPLICATE, None
    return DIFFERENCE, k


EXPLAIN = re.compile(r"^\s*EXPLAIN\b", re.I)


def plan_text_names(setting: str, sql: str, k: str | None) -> bool:
    """Whether a rows difference may be the dialect's names inside an EXPLAIN's plan text: the
    runner then runs the statement again under Spark's names (spark_named_rerun) to tell."""
    return setting in DIALECTS and k == "rows" and EXPLAIN.match(sql) is not None


def spark_named_rerun(setting: str, sql: str) -> list[str]:
    """The statements that run `sql` in colsem's JVM under Spark's names and restore the dialect."""
    key = "spark.colsem.naming.dialect"
    return [f"SET {key}=spark", sql, f"SET {key}={SETTINGS[setting][key]}"]


_NAME = r"(?:`(?:[^`]|``)+`|[\w$]+)"
METADATA_RELATION = re.compile(
    rf"^\s*(?:(?:DESC|DESCRIBE)\s+(?:TABLE\s+)?(?:EXTENDED\s+|FORMATTED\s+)?|SHOW\s+CREATE\s+TABLE\s+"
    rf"|SHOW\s+COLUMNS\s+(?:IN|FROM)\s+)(?P<name>{_NAME}(?:\.{_NAME})*)\s*(?:AS\s+SERDE\s*)?;?\s*$"
    rf"|^\s*SHOW\s+TABLE\s+EXTENDED\s+(?:(?:IN|FROM)\s+(?P<db>{_NAME})\s+)?LIKE\s+'(?P<like>[\w$]+)'\s*;?\s*$",
    re.I,
)


def metadata_relation(setting: str, sql: str, k: str | None) -> str | None:
    """The relation a DESCRIBE or SHOW names, when its rows differ under a dialect: the runner then
    asks colsem's JVM for the relation's column names (SHOW COLUMNS) for renamed_metadata."""
    if setting not in DIALECTS or k != "rows":
        return None
    m = METADATA_RELATION.match(sql)
    if m is None:
        return None
    if m.group("name"):
        return m.group("name")
    return f"{m.group('db')}.{m.group('like')}" if m.group("db") else m.group("like")


def _unpadded(line: str) -> str:
    """A line without the padding DESCRIBE puts after a column name (its width follows the name)."""
    return re.sub(r" +(?=\t|$)", "", line)


def renamed_metadata(v: dict[str, Any], c: dict[str, Any], names: list[str]) -> bool:
    """Whether colsem's DESCRIBE/SHOW text is vanilla's with some of `names` (the relation's columns
    in colsem's JVM) renamed: same schema, same line count, and each colsem line, every whole-word
    occurrence of a name read as a wildcard, matches vanilla's line exactly, with each name read as
    one vanilla name everywhere, no two names as the same one, and at least one name renamed."""
    vl, cl = v.get("lines"), c.get("lines")
    if vl is None or cl is None or len(vl) != len(cl) or v["schema"] != c["schema"] or not names:
        return False
    if len(vl) > 1 and not (v.get("ordered") and c.get("ordered")):
        return False  # sorted lines would not pair up once names change
    ordered = sorted({n for n in names if n}, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w$]){re.escape(n)}(?![\w$])" for n in ordered))
    reads: dict[str, str] = {}
    for a, b in zip(vl, cl):
        a, b = _unpadded(a), _unpadded(b)
        if a == b:
            continue
        found = [m.group(0) for m in pattern.finditer(b)]
        if not found:
            return False
        parts = pattern.split(b)
        m = re.fullmatch(
            "".join(
                re.escape(p) + ("([^\t\n]+?)" if i < len(found) else "")
                for i, p in enumerate(parts)
            ),
            a,
            re.S,
        )
        if m is None:
            return False
        for name, read in zip(found, m.groups()):
            if reads.setdefault(name, read) != read:
                return False
    renamed = {n: r for n, r in reads.items() if n != r}
    return bool(renamed) and len(set(reads.values())) == len(reads)


def same_rows(a: dict[str, Any], b: dict[str, Any] | None) -> bool:
    """Whether two answers agree on schema and rows (neither an error)."""
    return b is not None and "error" not in a and kind(a, b) is None


def nondeterministic(first: dict[str, Any], again: dict[str, Any] | None) -> bool:
    """Whether running a query again in the same engine gave other rows."""
    return (
        again is not None
        and "rows_hash" in again
        and "rows_hash" in first
        and again["rows_hash"] != first["rows_hash"]
    )


def brief(answer: dict[str, Any] | None, rows: int = 5) -> str:
    """One outcome in a line or a few: class/SQLSTATE/message head, or schema and first rows."""
    if answer is None:
        return "(none)"
    if "error" in answer:
        e = answer["error"]
        msg = " ".join((e.get("message") or "").split())[:240]
        return f"error {e['class']} (SQLSTATE {e.get('state')}): {msg}"
    schema = ", ".join(
        f"{f[0]} {f[1]}{'' if f[2] else ' NOT NULL'}"
        + (f" {f[3]}" if f[3] not in ("{}", None) else "")
        for f in answer["schema"]
    )
    head = answer["rows"][:rows]
    more = answer["row_count"] - len(head)
    text = f"schema ({schema}); {answer['row_count']} rows"
    if head:
        text += ": " + " | ".join(head) + (f" | ... {more} more" if more > 0 else "")
    return text
