"""The fuzzer's driver: two Spark JVMs (colsem, vanilla) as worker processes, DuckDB in process,
the oracles, shrinking, and the report.

    python -m fuzz --seed 1 --count 10000 --seconds 1800

Query number i of seed S is generated from its own random stream (S * 1000003 + i), so
`--seed S --first i --count 1` replays one query."""

from __future__ import annotations

import argparse
import collections
import json
import re
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspark

from sparkpipe import client as pipe

from . import data
from .facts import (
    duck_compatible,
    explicit_names,
    has_lateral,
    has_star,
    out_of_scope_reads,
    shapes,
    sqlite_names,
)
from .generator import Generator
from .render import render
from .shrink import alias_all, shrink
from .tree import Col, Core, GroupingSets, Query, SetOp, SubRef, TableRef, walk
from .values import canon_row

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
GOLDEN_INPUT = ROOT / "tests" / "sql" / "inputs" / "fuzz_regressions.sql"
GOLDEN_OUTPUT = ROOT / "tests" / "sql" / "results" / "fuzz_regressions.sql.out"

STAR_CONF = {
    "spark.colsem.star.exclude": "TAGGED,PATTERN",
    "spark.colsem.star.excludePattern": data.STAR_PATTERN,
}
DIALECT_KEY = "spark.colsem.naming.dialect"
SCOPES_KEY = "spark.colsem.lateralAlias.extraScopes"
SCOPES = ("WHERE", "SUBQUERY")
DIALECTS = ["canonical", "postgres", "mysql", "sqlite"]
ORACLES = ["vanilla", "inline", "duckdb", "dialects", "star"]
# The oracles that depend on the lateral-alias scopes: run once per --lateral-scopes value.
SCOPED_ORACLES = ("vanilla", "inline")
# Lines whose vanilla Spark groups a grouped alias inside ROLLUP, CUBE and GROUPING SETS by the
# item's own column (3.5 to 4.1, as their native lateral aliases fail there): see inlined_form.
SETS_WRITTEN_OUT = pyspark.__version__.startswith(("3.5", "4.0", "4.1"))
FATAL_MARKERS = ("INTERNAL_ERROR", "StackOverflowError", "Max iterations", "WORKER_LOST")


def inlined_form(q: Query) -> str:
    """The hand-inlined form, vanilla Spark's answer to which is the reference. On Spark 3.5 to
    4.1 a grouped alias inside ROLLUP, CUBE and GROUPING SETS is written out too (query._group)."""
    return render(q, inline=True, sets_written_out=SETS_WRITTEN_OUT)


# Differences already reported and not yet fixed (docs/fuzzing.md, "Open"): counted apart as
# known_open so a run still shows new ones. Each entry: (oracle, kind, test of the query and answers).
KNOWN_OPEN: list[tuple[str, str, Callable[..., bool]]] = []


def is_fatal(answer: dict[str, Any]) -> bool:
    err = answer.get("error")
    if not err:
        return False
    text = f"{err.get('class')} {err.get('message')}"
    return any(m in text for m in FATAL_MARKERS)


EXPRESSION_ID = re.compile(r"#\d+L?")


def same_failure(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Both failed with the same error class and message (its first line, expression ids aside:
    the plan Spark appends and its ids differ between JVMs): a fatal error vanilla Spark meets as
    well is Spark's own. Seed 1's query 2714: a window ordered by constants over a USING join fails
    with INTERNAL_ERROR "Cannot evaluate expression" in interpreted mode, colsem or not."""
    ea, eb = a.get("error"), b.get("error")

    def key(e: dict[str, Any]) -> tuple[Any, str]:
        return e.get("class"), EXPRESSION_ID.sub("#", (e.get("message") or "").split("\n")[0])

    return bool(ea and eb) and key(ea) == key(eb)


def names_as_written(q: Query, answer: dict[str, Any]) -> bool:
    """Whether the sqlite dialect named each column of the top SELECT list by its text as written
    (an item reading a lateral alias was once named by the whole statement); True where the list's
    columns are not one per item."""
    expected = sqlite_names(q)
    names = [f[0] for f in answer["schema"]]
    return expected is None or (
        len(names) == len(expected)
        and all(e is None or n == e for n, e in zip(names, expected, strict=True))
    )


SETS_OVER_USING_ERROR = "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION"


def refused_for_sets_over_using(q: Query, answer: dict[str, Any]) -> bool:
    """Vanilla Spark's own refusal, lateral aliases aside: a ROLLUP, CUBE or GROUPING SETS whose
    list reads a USING join's column through the right side's alias (`JOIN fb AS t7 USING (k)`,
    `t7.k`) fails with MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION, since the Expand
    sits above the join's Project, which hides that column; a plain GROUP BY of it answers. Seed
    24's query 607, shrunk: `SELECT t7.K AS tot, avg(tot) FROM (SELECT 1 AS k FROM fc AS t4) AS
    t6 JOIN fb AS t7 USING (k) GROUP BY CUBE(tot)`, whose alias-free form `... avg(t7.K) ...
    GROUP BY CUBE(t7.K)` vanilla refuses the same way."""
    err = answer.get("error")
    if not err or err.get("class") != SETS_OVER_USING_ERROR:
        return False
    for core in (n for n in walk(q) if isinstance(n, Core)):
        hidden = {
            (j.right.alias.lower(), c.lower())
            for j in core.joins
            if isinstance(j.right, (TableRef, SubRef))
            for c in j.using
        }
        sets = any(isinstance(g, GroupingSets) for g in core.group or [])
        reads = any(
            isinstance(n, Col) and ((n.qual or "").lower(), n.name.lower()) in hidden
            for n in walk([core.items, core.group])
        )
        if hidden and sets and reads:
            return True
    return False


# Answers of a reference JVM that ran out of memory: rechecked (Fuzzer.recheck_reference).
OUT_OF_MEMORY_MARKERS = (
    "AGGREGATE_OUT_OF_MEMORY",
    "SparkOutOfMemoryError",
    "java.lang.OutOfMemoryError",
)


def is_out_of_memory(answer: dict[str, Any]) -> bool:
    err = answer.get("error")
    return bool(err) and any(
        m in f"{err.get('class')} {err.get('message')}" for m in OUT_OF_MEMORY_MARKERS
    )


# ---------------------------------------------------------------- workers
class Worker(pipe.Worker):
    """One Spark JVM behind a pipe (fuzz/worker.py), its tables created at every start."""

    def __init__(
        self,
        mode: str,
        workdir: Path,
        tables: dict[str, str],
        golden: bool = False,
        conf: dict[str, str] | None = None,
    ):
        super().__init__(
            "fuzz.worker",
            mode,
            workdir,
            {"op": "setup", "tables": tables, "conf": conf or {}},
            ["golden"] if golden else [],
            "-golden" if golden else "",
        )


class Duck:
    """DuckDB over the parquet files the colsem JVM wrote."""

    def __init__(self, locations: dict[str, str]):
        import duckdb

        self.con = duckdb.connect()
        for name, loc in locations.items():
            path = loc[len("file:") :] if loc.startswith("file:") else loc
            self.con.execute(
                f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}/*.parquet')"
            )

    def run(self, sql: str) -> dict[str, Any]:
        try:
            return {"rows": [canon_row(r) for r in self.con.execute(sql).fetchall()]}
        except Exception as exc:
            return {"error": {"class": type(exc).__name__, "message": str(exc)[:300]}}


# ---------------------------------------------------------------- oracles
@dataclass(frozen=True)
class ScopeSetting:
    """One value of spark.colsem.lateralAlias.extraScopes every query is run under. The first
    value of a run is its primary: the DuckDB, dialect and star oracles run under it alone, and its
    oracles keep their plain names; another value's vanilla and inline oracles are named after it
    (`vanilla[WHERE]`)."""

    scopes: frozenset[str]
    primary: bool

    @property
    def value(self) -> str:
        return ",".join(s for s in SCOPES if s in self.scopes)

    @property
    def label(self) -> str:
        return self.value or "default"

    def oracle(self, name: str) -> str:
        return name if self.primary else f"{name}[{self.label}]"

    @property
    def answer(self) -> str:
        """The key of colsem's answer under this value."""
        return "c" if self.primary else f"c[{self.label}]"


@dataclass
class Case:
    index: int
    q: Query
    sql: str
    isql: str | None
    star: bool
    duck: bool
    # Per setting label, the scopes in which the query reads an alias that setting leaves out:
    # colsem must refuse it there as vanilla does.
    out_of_scope: dict[str, list[str]] = field(default_factory=dict)
    requests: dict[str, list[tuple[str, dict]]] = field(default_factory=dict)

    def lateral(self, setting: ScopeSetting) -> bool:
        """Whether colsem must answer the query's lateral aliases under `setting`."""
        return self.isql is not None and not self.out_of_scope[setting.label]


@dataclass
class Difference:
    oracle: str
    kind: str
    detail: dict[str, Any]

    @property
    def signature(self) -> tuple[str, str]:
        return (self.oracle, self.kind)


def rows_equal(a: list[list[str]], b: list[list[str]], ordered: bool) -> bool:
    if ordered:
        return a == b
    return sorted(map(tuple, a)) == sorted(map(tuple, b))


def total_order(q: Query, ncols: int) -> bool:
    return ncols > 0 and {p for p, _ in q.order} >= set(range(1, ncols + 1))


def dedupes(q: Query) -> bool:
    """Whether removing columns may change the row count (DISTINCT, UNION, INTERSECT, EXCEPT)."""
    return any(
        (isinstance(n, Core) and n.distinct) or (isinstance(n, SetOp) and n.op != "UNION ALL")
        for n in walk(q)
    )


def brief(answer: dict[str, Any], rows: int = 8) -> dict[str, Any]:
    if "error" in answer:
        return {"error": answer["error"]}
    out = {"schema": answer.get("schema")}
    if "rows" in answer:
        out["rows"] = answer["rows"][:rows]
        out["row_count"] = len(answer["rows"])
    return out


DECIMAL_TYPE = re.compile(r"decimal\(\d+,\d+\)")


def inline_types(schema: list[list[Any]]) -> list[str]:
    """Column types as the inline oracle compares them: decimal precision and scale left out, and
    nullability too. The inlined form puts an alias's expression where the alias was read, and
    Spark derives both from literals: an integer literal in decimal arithmetic is typed by its
    digits (`1 / 0.5`) but a column by its declared type (`m / 0.5` with `1 AS m`), and
    `CASE WHEN true THEN 'p' ELSE <nullable> END` is NOT NULL while `CASE WHEN m ...` with
    `true AS m` is nullable (the fuzzer's query 6489 of seed 1). The values agree; the vanilla
    oracle compares nullability with Spark's own lateral alias support."""
    return [DECIMAL_TYPE.sub("decimal", f[1]) for f in schema]


class Fuzzer:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.stop_requested = False
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="colsem-fuzz-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.tables = {name: data.create_sql(name) for name in data.SCHEMAS}
        self.settings = [
            ScopeSetting(frozenset(value.split(",")) - {""}, i == 0)
            for i, value in enumerate(dict.fromkeys(args.lateral_scopes or [""]))
        ]
        self.primary = self.settings[0]
        self.oracles = [self.primary.oracle(o) for o in ORACLES] + [
            s.oracle(o) for s in self.settings[1:] for o in SCOPED_ORACLES
        ]
        # The default colsem session, and the star and dialect sessions, read aliases in the
        # primary value's scopes; each other value has a session of its own.
        self.scopes_conf = {SCOPES_KEY: self.primary.value}
        self.colsem = Worker("colsem", self.workdir, self.tables, conf=self.scopes_conf)
        self.vanilla = Worker("vanilla", self.workdir, self.tables)
        self.recheck_worker: Worker | None = None  # started on the first recheck
        self.stats: dict[str, collections.Counter] = {
            o: collections.Counter() for o in self.oracles
        }
        # The inline oracle's outcomes per setting label and lateral-alias shape (query.shapes).
        self.shape_stats: dict[str, dict[str, collections.Counter]] = {
            s.label: collections.defaultdict(collections.Counter) for s in self.settings
        }
        self.differences: list[dict[str, Any]] = []
        self.saved: list[dict[str, Any]] = []
        self.queries = 0
        self.lateral = 0
        self.out_of_scope: collections.Counter = collections.Counter()
        self.notes: list[str] = []
        self.dialects_active = False

    # -- set-up
    def start(self) -> None:
        self.colsem.start()
        self.vanilla.start()
        c, v = self.colsem.finish_setup(), self.vanilla.finish_setup()
        if not c["loaded"] or v["loaded"]:
            raise RuntimeError(
                f"colsem loaded: colsem JVM {c['loaded']}, vanilla JVM {v['loaded']}"
            )
        self.duck = Duck(c["locations"])
        self.dialects_active = DIALECT_KEY in c["status"]
        if not self.dialects_active:
            self.notes.append(
                f"dialect oracle skipped: colsem_status() does not list {DIALECT_KEY} "
                "(naming dialects are not in this build)"
            )
            print(f"[fuzz] {self.notes[-1]}", file=sys.stderr)

    def stop(self) -> None:
        for worker in (self.colsem, self.vanilla, self.recheck_worker):
            if worker is not None:
                worker.stop()

    # -- one query's requests
    def case(self, index: int) -> Case:
        q = Generator(self.args.seed * 1000003 + index).query()
        return self.make_case(index, q)

    def make_case(self, index: int, q: Query) -> Case:
        out_of_scope = {s.label: out_of_scope_reads(q, set(s.scopes)) for s in self.settings}
        lateral = has_lateral(q) and any(not reads for reads in out_of_scope.values())
        sql = render(q)
        c = Case(
            index,
            q,
            sql,
            inlined_form(q) if lateral else None,
            has_star(q),
            duck_compatible(q),
            out_of_scope,
        )
        scopes = self.scopes_conf
        col: list[tuple[str, dict]] = [("c", {"op": "run", "sql": sql})]
        for s in self.settings[1:]:
            col.append(
                (
                    s.answer,
                    {
                        "op": "run",
                        "sql": sql,
                        "session": f"scopes-{s.label}",
                        "conf": {SCOPES_KEY: s.value},
                    },
                )
            )
        van: list[tuple[str, dict]] = [("v", {"op": "run", "sql": sql})]
        if lateral:
            van.append(("vi", {"op": "run", "sql": c.isql}))
        if c.star or index % 8 == 0:
            col.append(
                (
                    "cs",
                    {"op": "run", "sql": sql, "session": "star", "conf": {**STAR_CONF, **scopes}},
                )
            )
        if self.dialects_active:
            for d in DIALECTS:
                for run in (1, 2):
                    col.append(
                        (
                            f"d:{d}:{run}",
                            {
                                "op": "run",
                                "sql": sql,
                                "session": f"dialect-{d}-{run}",
                                "conf": {DIALECT_KEY: d, **scopes},
                                "collect": False,
                            },
                        )
                    )
        c.requests = {"colsem": col, "vanilla": van}
        return c

    def run_cases(self, cases: list[Case]) -> list[dict[str, dict[str, Any]]]:
        col = [r for c in cases for _, r in c.requests["colsem"]]
        van = [r for c in cases for _, r in c.requests["vanilla"]]
        self.colsem.send(col)
        self.vanilla.send(van)
        timeout = self.args.query_timeout
        col_answers = self.colsem.collect(len(col), timeout)
        van_answers = self.vanilla.collect(len(van), timeout)
        results = []
        ci = vi = 0
        for c in cases:
            res: dict[str, dict[str, Any]] = {}
            for key, _ in c.requests["colsem"]:
                res[key] = col_answers[ci]
                ci += 1
            for key, _ in c.requests["vanilla"]:
                res[key] = van_answers[vi]
                vi += 1
            results.append(res)
        return results

    def recheck_reference(
        self, case: Case, res: dict[str, dict[str, Any]], stats: dict[str, collections.Counter]
    ) -> dict[str, dict[str, Any]]:
        """The answers, with the reference's failure replaced by a young vanilla JVM's answer when
        that failure would make a difference (colsem answered rows, or the reference ran out of
        memory). A vanilla JVM that has run tens of thousands of stages can fail a query a fresh one
        answers: seed 1 saw AGGREGATE_OUT_OF_MEMORY on 8-row tables, and a NullPointerException in
        JoinedRow (query 7535, stage 25,643). The recheck JVM runs only rechecks, so it stays
        young; colsem's answers are never run again. Each setting compares its answer with one
        reference (the inlined form's where it answers the lateral aliases), run again at most once."""
        rechecked = set()
        for setting in self.settings:
            key, oracle = ("vi", "inline") if case.lateral(setting) else ("v", "vanilla")
            first = res[key]
            if (
                key in rechecked
                or "error" not in first
                or not (is_out_of_memory(first) or "error" not in res[setting.answer])
            ):
                continue
            if self.recheck_worker is None:
                self.recheck_worker = Worker("vanilla", self.workdir, self.tables)
                self.recheck_worker.start()
            request = dict(case.requests["vanilla"])[key]
            answer = self.recheck_worker.call([request], self.args.query_timeout)[0]
            rechecked.add(key)
            stats[setting.oracle(oracle)]["reference_rechecked"] += 1
            if "error" not in answer or answer["error"]["class"] != first["error"]["class"]:
                stats[setting.oracle(oracle)]["reference_recovered"] += 1
            res = {**res, key: answer}
        return res

    # -- the oracles
    def check_scoped(
        self,
        case: Case,
        res: dict[str, dict[str, Any]],
        setting: ScopeSetting,
        stats: dict[str, collections.Counter],
        diffs: list[Difference],
        count: bool,
    ) -> None:
        """The oracles that depend on the lateral-alias scopes, for colsem's answer under `setting`."""
        c, v = res[setting.answer], res["v"]
        vanilla, inline = setting.oracle("vanilla"), setting.oracle("inline")
        found: list[Difference] = []

        def diff(oracle: str, kind: str, **detail: Any) -> None:
            found.append(Difference(oracle, kind, {"setting": setting.label, **detail}))

        # 1. colsem vs vanilla Spark.
        st = stats[vanilla]
        st["checked"] += 1
        if is_fatal(c) and same_failure(c, v):
            st["same_fatal_error"] += 1
        elif is_fatal(c):
            diff(vanilla, "fatal", colsem=brief(c), vanilla=brief(v))
        elif "error" not in v:
            if "error" in c:
                diff(vanilla, "colsem_error", colsem=brief(c), vanilla=brief(v))
            elif c["schema"] != v["schema"]:
                diff(vanilla, "schema", colsem=brief(c), vanilla=brief(v))
            elif not rows_equal(c["rows"], v["rows"], total_order(case.q, len(c["schema"]))):
                diff(vanilla, "rows", colsem=brief(c, 50), vanilla=brief(v, 50))
            else:
                st["same_rows"] += 1
        elif "error" in c:
            if case.out_of_scope[setting.label] and c["error"]["class"] != v["error"]["class"]:
                # Refused for the alias out of scope (the hint names the setting), where vanilla
                # fails first on something else (its native lateral aliases, say).
                if (
                    c["error"]["class"].startswith("UNRESOLVED_COLUMN")
                    and SCOPES_KEY in c["error"]["message"]
                ):
                    st["out_of_scope_refused"] += 1
                else:
                    diff(vanilla, "out_of_scope_error", colsem=brief(c), vanilla=brief(v))
            elif c["error"]["class"] != v["error"]["class"] and not case.lateral(setting):
                diff(vanilla, "error_class", colsem=brief(c), vanilla=brief(v))
            else:
                st[
                    "same_error"
                    if c["error"]["class"] == v["error"]["class"]
                    else "lateral_other_error"
                ] += 1
        elif case.lateral(setting):
            st["lateral_only_colsem"] += 1  # oracle 2 checks these
        else:
            diff(vanilla, "colsem_accepts", colsem=brief(c), vanilla=brief(v))

        # 2. lateral aliases vs their inlined form (vanilla Spark).
        if case.lateral(setting):
            st = stats[inline]
            st["checked"] += 1
            vi = res["vi"]
            if is_fatal(c) and same_failure(c, vi):
                st["same_fatal_error"] += 1
            elif is_fatal(c):
                diff(inline, "fatal", colsem=brief(c), inlined=brief(vi))
            elif "error" in vi:
                if "error" in c:
                    st["both_error"] += 1
                elif refused_for_sets_over_using(case.q, vi):
                    st["inlined_refused_by_spark"] += 1
                else:
                    diff(inline, "inlined_fails", colsem=brief(c), inlined=brief(vi))
            elif "error" in c:
                diff(inline, "colsem_error", colsem=brief(c), inlined=brief(vi))
            elif inline_types(c["schema"]) != inline_types(vi["schema"]):
                diff(inline, "types", colsem=brief(c), inlined=brief(vi))
            elif not rows_equal(c["rows"], vi["rows"], total_order(case.q, len(c["schema"]))):
                diff(inline, "rows", colsem=brief(c, 50), inlined=brief(vi, 50))
            else:
                st["same_rows"] += 1
            if count:
                outcome = (
                    "difference"
                    if any(d.oracle == inline for d in found)
                    else "both_error"
                    if "error" in vi
                    else "same_rows"
                )
                for shape in shapes(case.q):
                    self.shape_stats[setting.label][shape][outcome] += 1
        diffs.extend(found)

    def evaluate(
        self, case: Case, res: dict[str, dict[str, Any]], count: bool = True
    ) -> list[Difference]:
        diffs: list[Difference] = []
        stats = self.stats if count else {o: collections.Counter() for o in self.oracles}
        res = self.recheck_reference(case, res, stats)
        c, v = res["c"], res["v"]

        def diff(oracle: str, kind: str, **detail: Any) -> None:
            diffs.append(Difference(oracle, kind, detail))

        for setting in self.settings:
            self.check_scoped(case, res, setting, stats, diffs, count)
        if case.duck and "error" not in c:
            st = stats["duckdb"]
            d = self.duck.run(case.sql)
            form = "as written"
            if "error" in d and case.isql:
                d, form = self.duck.run(case.isql), "inlined"
            if "error" in d:
                st["skipped_duckdb_error"] += 1
            else:
                st["checked"] += 1
                st[f"compared_{form.replace(' ', '_')}"] += 1
                if not rows_equal(c["rows"], d["rows"], False):
                    diff(
                        "duckdb",
                        "rows",
                        colsem=brief(c, 50),
                        duckdb={"form": form, "rows": d["rows"][:50]},
                    )
                else:
                    st["same_rows"] += 1

        # A fatal error vanilla Spark meets on the same query (or its inlined form) is Spark's own.
        def spark_fails_alike(answer: dict[str, Any]) -> bool:
            return any(same_failure(answer, res[k]) for k in ("v", "vi") if k in res)

        # 3. naming dialects: no internal error, the same names run after run.
        if self.dialects_active:
            st = stats["dialects"]
            for dialect in DIALECTS:
                st["checked"] += 1
                one, two = res[f"d:{dialect}:1"], res[f"d:{dialect}:2"]
                if (
                    (is_fatal(one) or is_fatal(two))
                    and spark_fails_alike(one)
                    and spark_fails_alike(two)
                ):
                    st["same_fatal_error"] += 1
                elif is_fatal(one) or is_fatal(two):
                    diff("dialects", "fatal", dialect=dialect, first=brief(one), second=brief(two))
                elif one.get("schema") != two.get("schema") or ("error" in one) != ("error" in two):
                    diff(
                        "dialects", "unstable", dialect=dialect, first=brief(one), second=brief(two)
                    )
                elif dialect == "sqlite" and "schema" in one and not names_as_written(case.q, one):
                    diff("dialects", "names", dialect=dialect, first=brief(one), written=case.sql)
                else:
                    st["stable"] += 1

        # 4. star strategies: no internal error; explicitly named columns always there.
        if "cs" in res:
            st = stats["star"]
            st["checked"] += 1
            cs = res["cs"]
            if is_fatal(cs) and spark_fails_alike(cs):
                st["same_fatal_error"] += 1
            elif is_fatal(cs):
                diff("star", "fatal", star=brief(cs), default=brief(c))
            elif "error" not in cs and "error" not in c:
                names = [f[0].lower() for f in cs["schema"]]
                default = collections.Counter(f[0].lower() for f in c["schema"])
                missing = [n for n in explicit_names(case.q) if n.lower() not in names]
                extra = collections.Counter(names) - default
                if missing:
                    diff(
                        "star",
                        "explicit_missing",
                        missing=missing,
                        star=brief(cs),
                        default=brief(c),
                    )
                elif extra:
                    diff(
                        "star",
                        "extra_columns",
                        extra=sorted(extra),
                        star=brief(cs),
                        default=brief(c),
                    )
                elif len(cs["rows"]) != len(c["rows"]) and not dedupes(case.q):
                    diff("star", "row_count", star=brief(cs), default=brief(c))
                else:
                    st["ok"] += 1
            else:
                st["errors"] += 1
        known = [
            d
            for d in diffs
            if any(o == d.oracle and k == d.kind and test(case, c, v) for o, k, test in KNOWN_OPEN)
        ]
        for d in known:
            stats[d.oracle]["known_open"] += 1
        diffs = [d for d in diffs if d not in known]
        for d in diffs:
            stats[d.oracle]["differences"] += 1
        return diffs

    # -- failures
    def check_one(self, q: Query, index: int) -> list[Difference]:
        case = self.make_case(index, q)
        return self.evaluate(case, self.run_cases([case])[0], count=False)

    def handle(self, case: Case, diffs: list[Difference]) -> None:
        for d in diffs:
            record = {
                "index": case.index,
                "seed": self.args.seed,
                "oracle": d.oracle,
                "kind": d.kind,
                "sql": case.sql,
                "inlined": case.isql,
                "detail": d.detail,
            }
            self.differences.append(record)
        if self.args.no_shrink or len(self.saved) >= self.args.max_shrinks:
            return
        d = diffs[0]
        seen = {(s["oracle"], s["kind"]) for s in self.saved}
        if d.signature in seen:
            return
        print(f"\n[fuzz] query {case.index}: {d.oracle}/{d.kind}; shrinking ...", file=sys.stderr)

        def still_fails(cand: Query) -> bool:
            return any(x.signature == d.signature for x in self.check_one(cand, case.index))

        small = shrink(case.q, still_fails, self.args.shrink_checks, self.args.shrink_seconds)
        if d.oracle.startswith("inline"):
            named = alias_all(small)
            if still_fails(named):
                small = named
        final = self.check_one(small, case.index)
        detail = next((x.detail for x in final if x.signature == d.signature), d.detail)
        entry = {
            "index": case.index,
            "seed": self.args.seed,
            "oracle": d.oracle,
            "kind": d.kind,
            "sql": render(small),
            # The golden reference: the inlined form only where that is the oracle's reference.
            "inlined": inlined_form(small)
            if d.oracle.startswith("inline") and has_lateral(small)
            else None,
            "original": case.sql,
            "detail": detail,
        }
        self.saved.append(entry)
        print(f"[fuzz] minimal: {entry['sql']}", file=sys.stderr)
        if self.args.save_regressions:
            self.save_regression(entry)

    def save_regression(self, entry: dict[str, Any], force: bool = False) -> None:
        """Append the minimal query to tests/sql/inputs/fuzz_regressions.sql; its expected
        output comes from vanilla Spark (the query itself, or its inlined form for a lateral
        alias query), rendered by tests/golden.py."""
        header = [
            "-- Minimal queries the differential fuzzer (make fuzz) found failing; expected",
            "-- output from vanilla Spark (for the inline oracle: the inlined form's rows).",
            "-- The tables are the fuzzer's (fuzz/data.py); aliases are read in WHERE and in",
            "-- subqueries too, as in the runs that found them.",
        ]
        creates = [data.create_sql(t, properties=False) for t in data.SCHEMAS] + [
            f"SET {SCOPES_KEY}={','.join(SCOPES)}"
        ]
        queries: list[tuple[str, str | None]] = []
        if GOLDEN_INPUT.exists():
            sys.path.insert(0, str(ROOT / "tests"))
            from golden import statements

            queries = [
                (stmt, None)
                for stmt in statements(GOLDEN_INPUT.read_text())
                if not stmt.upper().startswith(("CREATE", "SET"))
            ]
        if any(s == entry["sql"] for s, _ in queries):
            if not force:
                return
            queries = [(s, i) for s, i in queries if s != entry["sql"]]
        queries.append((entry["sql"], entry["inlined"]))
        inlined_of = self._inlined_map()
        inlined_of[entry["sql"]] = entry["inlined"]
        reference = [inlined_of.get(s) or s for s, _ in queries]
        # A fresh vanilla JVM set up as the pytest session is (golden output depends on it).
        golden = Worker("vanilla", self.workdir, {}, golden=True)
        golden.start()
        answer = golden.call([{"op": "golden", "statements": creates + reference}], timeout=600)[0]
        golden.stop()
        text = answer["text"]
        for s, ref in zip([q for q, _ in queries], reference):
            if ref != s:
                text = text.replace(f"-- !query\n{ref}\n", f"-- !query\n{s}\n", 1)
        body = "\n".join(header) + "\n" + ";\n\n".join(creates + [s for s, _ in queries]) + ";\n"
        GOLDEN_INPUT.write_text(body)
        GOLDEN_OUTPUT.write_text(text)
        map_path = RESULTS / "regressions_inlined.json"
        map_path.parent.mkdir(parents=True, exist_ok=True)
        map_path.write_text(json.dumps(inlined_of, indent=1, sort_keys=True) + "\n")
        print(f"[fuzz] saved to {GOLDEN_INPUT.relative_to(ROOT)}", file=sys.stderr)

    def rerender_regressions(self) -> None:
        """Re-renders tests/sql/results/fuzz_regressions.sql.out from vanilla Spark."""
        sys.path.insert(0, str(ROOT / "tests"))
        from golden import statements

        queries = [
            s
            for s in statements(GOLDEN_INPUT.read_text())
            if not s.upper().startswith(("CREATE", "SET"))
        ]
        last = queries.pop()
        inlined = self._inlined_map().get(last)
        self.save_regression({"sql": last, "inlined": inlined}, force=True)

    def _inlined_map(self) -> dict[str, str | None]:
        path = RESULTS / "regressions_inlined.json"
        return json.loads(path.read_text()) if path.exists() else {}

    # -- the run
    def run(self) -> dict[str, Any]:
        """The run and its report. The signal handlers are in place before the JVMs start, so a
        Ctrl-C during start-up also ends with a report (of the queries run: none); a second one
        stops the workers and exits without one."""
        previous = {
            sig: signal.signal(sig, self._request_stop) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            return self._run()
        except KeyboardInterrupt:
            self.stop()
            print("\n[fuzz] stopped at once: no report written", file=sys.stderr, flush=True)
            raise SystemExit(130) from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _run(self) -> dict[str, Any]:
        args = self.args
        start = time.monotonic()
        self.start()
        setup_seconds = time.monotonic() - start
        t0 = time.monotonic()
        index = args.first
        last_print = 0.0
        while (
            self.queries < args.count
            and time.monotonic() - t0 < args.seconds
            and not self.stop_requested
        ):
            n = min(args.batch, args.count - self.queries)
            cases = [self.case(index + i) for i in range(n)]
            index += n
            results = self.run_cases(cases)
            for case, res in zip(cases, results):
                self.queries += 1
                self.lateral += case.lateral(self.primary)
                for label, reads in case.out_of_scope.items():
                    self.out_of_scope[label] += bool(reads)
                diffs = self.evaluate(case, res)
                if diffs:
                    self.handle(case, diffs)
            now = time.monotonic()
            if now - last_print > 1.0 or self.queries >= args.count:
                last_print = now
                rate = self.queries / max(now - t0, 1e-9)
                print(
                    f"\r[fuzz] {self.queries}/{args.count} queries  {rate:.1f} q/s  "
                    f"differences: {len(self.differences)}   ",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        elapsed = time.monotonic() - t0
        print(file=sys.stderr)
        self.stop()
        return self.report(elapsed, setup_seconds)

    def _request_stop(self, signum: int, frame: Any) -> None:
        """Ctrl-C or SIGTERM: finish the batch under way and write the report; a second one
        stops at once (no report)."""
        if self.stop_requested:
            raise KeyboardInterrupt
        self.stop_requested = True
        print(
            f"\n[fuzz] {signal.Signals(signum).name}: stopping after this batch and writing the report "
            "(again to stop at once)",
            file=sys.stderr,
            flush=True,
        )

    def report(self, elapsed: float, setup_seconds: float) -> dict[str, Any]:
        report = {
            "seed": self.args.seed,
            "first": self.args.first,
            "count_requested": self.args.count,
            "seconds_limit": self.args.seconds,
            "stopped_early": self.stop_requested,
            "queries": self.queries,
            "lateral_queries": self.lateral,
            "lateral_scopes": self.primary.value,
            "lateral_scope_settings": [s.value for s in self.settings],
            "out_of_scope_queries": self.out_of_scope[self.primary.label],
            "out_of_scope_by_setting": {s.label: self.out_of_scope[s.label] for s in self.settings},
            "seconds": round(elapsed, 1),
            "setup_seconds": round(setup_seconds, 1),
            "queries_per_second": round(self.queries / max(elapsed, 1e-9), 2),
            "oracles": {o: dict(sorted(self.stats[o].items())) for o in self.oracles},
            "shapes": {
                label: {s: dict(sorted(c.items())) for s, c in sorted(by_shape.items())}
                for label, by_shape in self.shape_stats.items()
            },
            "differences": len(self.differences),
            "notes": self.notes,
            "minimal_failures": self.saved,
            "all_differences": self.differences[:200],
            "worker_starts": {"colsem": self.colsem.starts, "vanilla": self.vanilla.starts},
        }
        out = Path(self.args.report_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
        (out / "latest.md").write_text(markdown(report))
        return report


def markdown(r: dict[str, Any]) -> str:
    settings = r["lateral_scope_settings"]
    scope_args = " ".join(f"--lateral-scopes '{v}'" for v in settings)
    lines = [
        "# colsem differential fuzzer: latest run",
        "",
        f'`make fuzz FUZZ_ARGS="--seed {r["seed"]} --count {r["count_requested"]} '
        f'--seconds {r["seconds_limit"]} {scope_args}"`',
        "",
        "| | |",
        "|---|---|",
        f"| seed | {r['seed']} |",
        f"| queries | {r['queries']} ({r['lateral_queries']} with lateral aliases) |",
    ]
    for value in settings:
        label = value or "default"
        lines.append(
            f"| {SCOPES_KEY} | {value or '(empty, the default)'}: every query; "
            f"{r['out_of_scope_by_setting'][label]} read an alias in a scope it leaves out "
            "(vanilla's refusal expected) |"
        )
    lines += [
        f"| seconds (after {r['setup_seconds']} s start-up) | {r['seconds']}"
        f"{' (stopped early by a signal)' if r.get('stopped_early') else ''} |",
        f"| queries/second | {r['queries_per_second']} |",
        f"| differences | {r['differences']} |",
        "",
        "| oracle | checked | differences | other counts |",
        "|---|---|---|---|",
    ]
    for o, st in r["oracles"].items():
        other = ", ".join(f"{k} {v}" for k, v in st.items() if k not in ("checked", "differences"))
        lines.append(f"| {o} | {st.get('checked', 0)} | {st.get('differences', 0)} | {other} |")
    lines.append("")
    labels = [v or "default" for v in settings]
    names = sorted({shape for label in labels for shape in r["shapes"].get(label, {})})
    if names:
        lines += [
            "Queries with lateral aliases by shape, per value of the setting (the inline oracle: same rows "
            "as the inlined form / both refused / differences; a query may hold several shapes; a "
            "query reading an alias in a scope the value leaves out is not counted there):",
            "",
            "| shape | " + " | ".join(labels) + " |",
            "|---" * (len(labels) + 1) + "|",
        ]
        for shape in names:
            cells = []
            for label in labels:
                st = r["shapes"].get(label, {}).get(shape, {})
                cells.append(
                    f"{st.get('same_rows', 0)} / {st.get('both_error', 0)} / {st.get('difference', 0)}"
                )
            lines.append(f"| {shape} | " + " | ".join(cells) + " |")
        lines.append("")
    for n in r["notes"]:
        lines.append(f"- {n}")
    if r["minimal_failures"]:
        lines += ["", "## Minimal failing queries", ""]
        for f in r["minimal_failures"]:
            lines += [
                f"### {f['oracle']}/{f['kind']} (query {f['index']})",
                "",
                "```sql",
                f["sql"],
                "```",
                "",
                "```json",
                json.dumps(f["detail"], indent=1)[:3000],
                "```",
                "",
            ]
    return "\n".join(lines) + "\n"


# `--lateral-scopes each`: every value of the setting.
EACH_SCOPE_SETTING = ["", "WHERE", "SUBQUERY", "WHERE,SUBQUERY"]


def _scopes(value: str) -> list[str]:
    """One --lateral-scopes argument: the values of the setting it stands for."""
    if value.strip().lower() == "each":
        return list(EACH_SCOPE_SETTING)
    names = [n.strip().upper() for n in value.split(",") if n.strip()]
    bad = [n for n in names if n not in SCOPES]
    if bad:
        raise argparse.ArgumentTypeError(
            f"{', '.join(bad)}: not a scope (a comma list of {', '.join(SCOPES)}, or `each`)"
        )
    return [",".join(s for s in SCOPES if s in names)]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m fuzz",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10000, help="queries to run (at most)")
    p.add_argument("--seconds", type=float, default=3600, help="stop after this long (at most)")
    p.add_argument("--first", type=int, default=0, help="index of the first query (replay)")
    p.add_argument("--batch", type=int, default=25, help="queries sent to the JVMs at once")
    p.add_argument(
        "--lateral-scopes",
        type=_scopes,
        action="extend",
        default=None,
        metavar="LIST",
        help=f"{SCOPES_KEY} of the colsem sessions: a comma list of {', '.join(SCOPES)} "
        "(default empty, colsem's default); aliases read in a scope it leaves out "
        "must be refused as vanilla Spark refuses them. Given again (or `each`: "
        "all four values), every query also runs under each further value, with "
        "the vanilla and inline oracles per value; the first is the one the "
        "DuckDB, dialect and star oracles use",
    )
    p.add_argument("--query-timeout", type=float, default=120)
    p.add_argument("--workdir", default=None, help="warehouses and JVM logs (default: a temp dir)")
    p.add_argument("--report-dir", default=str(RESULTS))
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--max-shrinks", type=int, default=5, help="distinct failures to shrink")
    p.add_argument("--shrink-checks", type=int, default=300)
    p.add_argument("--shrink-seconds", type=float, default=240)
    p.add_argument(
        "--save-regressions",
        action="store_true",
        help="append minimal failures to tests/sql/inputs/fuzz_regressions.sql",
    )
    p.add_argument(
        "--rerender-regressions",
        action="store_true",
        help="re-render tests/sql/results/fuzz_regressions.sql.out from vanilla Spark",
    )
    p.add_argument("--show", action="store_true", help="print the queries instead of running them")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.show:
        for i in range(args.first, args.first + args.count):
            q = Generator(args.seed * 1000003 + i).query()
            print(f"-- query {i}\n{render(q)};")
            if has_lateral(q):
                print(f"-- inlined\n{inlined_form(q)};")
        return 0
    if args.rerender_regressions:
        Fuzzer(args).rerender_regressions()
        return 0
    report = Fuzzer(args).run()
    print(
        json.dumps({k: report[k] for k in ("seed", "queries", "queries_per_second", "differences")})
    )
    return 1 if report["differences"] else 0
