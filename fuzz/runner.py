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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pyspark

from . import data
from .query import (Core, Generator, Query, SetOp, duck_compatible, explicit_names,
                    has_lateral, has_star, out_of_scope_reads, render, shapes, walk)
from .shrink import alias_all, shrink
from .values import canon_row
from sparkpipe import client as pipe

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
GOLDEN_INPUT = ROOT / "tests" / "sql" / "inputs" / "fuzz_regressions.sql"
GOLDEN_OUTPUT = ROOT / "tests" / "sql" / "results" / "fuzz_regressions.sql.out"

STAR_CONF = {"spark.colsem.star.exclude": "TAGGED,PATTERN",
             "spark.colsem.star.excludePattern": data.STAR_PATTERN}
DIALECT_KEY = "spark.colsem.naming.dialect"
SCOPES_KEY = "spark.colsem.lateralAlias.extraScopes"
SCOPES = ("WHERE", "SUBQUERY")
DIALECTS = ["canonical", "postgres", "mysql", "sqlite"]
ORACLES = ["vanilla", "inline", "duckdb", "dialects", "star"]
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
KNOWN_OPEN: List[Tuple[str, str, Callable[..., bool]]] = []


def is_fatal(answer: Dict[str, Any]) -> bool:
    err = answer.get("error")
    if not err:
        return False
    text = f"{err.get('class')} {err.get('message')}"
    return any(m in text for m in FATAL_MARKERS)


EXPRESSION_ID = re.compile(r"#\d+L?")


def same_failure(a: Dict[str, Any], b: Dict[str, Any]) -> bool:
    """Both failed with the same error class and message (its first line, expression ids aside:
    the plan Spark appends and its ids differ between JVMs): a fatal error vanilla Spark meets as
    well is Spark's own. Seed 1's query 2714: a window ordered by constants over a USING join fails
    with INTERNAL_ERROR "Cannot evaluate expression" in interpreted mode, colsem or not."""
    ea, eb = a.get("error"), b.get("error")
    def key(e: Dict[str, Any]) -> Tuple[Any, str]:
        return e.get("class"), EXPRESSION_ID.sub("#", (e.get("message") or "").split("\n")[0])
    return bool(ea and eb) and key(ea) == key(eb)


# Answers of a reference JVM that ran out of memory: rechecked (Fuzzer.recheck_reference).
OUT_OF_MEMORY_MARKERS = ("AGGREGATE_OUT_OF_MEMORY", "SparkOutOfMemoryError", "java.lang.OutOfMemoryError")


def is_out_of_memory(answer: Dict[str, Any]) -> bool:
    err = answer.get("error")
    return bool(err) and any(m in f"{err.get('class')} {err.get('message')}" for m in OUT_OF_MEMORY_MARKERS)


# ---------------------------------------------------------------- workers
class Worker(pipe.Worker):
    """One Spark JVM behind a pipe (fuzz/worker.py), its tables created at every start."""

    def __init__(self, mode: str, workdir: Path, tables: Dict[str, str], golden: bool = False,
                 conf: Optional[Dict[str, str]] = None):
        super().__init__("fuzz.worker", mode, workdir, {"op": "setup", "tables": tables, "conf": conf or {}},
                         ["golden"] if golden else [], "-golden" if golden else "")


class Duck:
    """DuckDB over the parquet files the colsem JVM wrote."""

    def __init__(self, locations: Dict[str, str]):
        import duckdb

        self.con = duckdb.connect()
        for name, loc in locations.items():
            path = loc[len("file:"):] if loc.startswith("file:") else loc
            self.con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}/*.parquet')")

    def run(self, sql: str) -> Dict[str, Any]:
        try:
            return {"rows": [canon_row(r) for r in self.con.execute(sql).fetchall()]}
        except Exception as exc:
            return {"error": {"class": type(exc).__name__, "message": str(exc)[:300]}}


# ---------------------------------------------------------------- oracles
@dataclass
class Case:
    index: int
    q: Query
    sql: str
    isql: Optional[str]
    lateral: bool
    star: bool
    duck: bool
    # Scopes in which it reads an alias that --lateral-scopes leaves out: colsem must refuse it.
    out_of_scope: List[str] = field(default_factory=list)
    requests: Dict[str, List[Tuple[str, dict]]] = field(default_factory=dict)


@dataclass
class Difference:
    oracle: str
    kind: str
    detail: Dict[str, Any]

    @property
    def signature(self) -> Tuple[str, str]:
        return (self.oracle, self.kind)


def rows_equal(a: List[List[str]], b: List[List[str]], ordered: bool) -> bool:
    if ordered:
        return a == b
    return sorted(map(tuple, a)) == sorted(map(tuple, b))


def total_order(q: Query, ncols: int) -> bool:
    return ncols > 0 and {p for p, _ in q.order} >= set(range(1, ncols + 1))


def dedupes(q: Query) -> bool:
    """Whether removing columns may change the row count (DISTINCT, UNION, INTERSECT, EXCEPT)."""
    return any((isinstance(n, Core) and n.distinct) or (isinstance(n, SetOp) and n.op != "UNION ALL")
               for n in walk(q))


def brief(answer: Dict[str, Any], rows: int = 8) -> Dict[str, Any]:
    if "error" in answer:
        return {"error": answer["error"]}
    out = {"schema": answer.get("schema")}
    if "rows" in answer:
        out["rows"] = answer["rows"][:rows]
        out["row_count"] = len(answer["rows"])
    return out


DECIMAL_TYPE = re.compile(r"decimal\(\d+,\d+\)")


def inline_types(schema: List[List[Any]]) -> List[str]:
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
        self.scopes = set(args.lateral_scopes)
        # Every colsem session reads aliases in the scopes asked for (a new session, set up with
        # its first request, gets them with that request).
        self.scopes_conf = {SCOPES_KEY: ",".join(s for s in SCOPES if s in self.scopes)}
        self.colsem = Worker("colsem", self.workdir, self.tables, conf=self.scopes_conf)
        self.vanilla = Worker("vanilla", self.workdir, self.tables)
        self.recheck_worker: Optional[Worker] = None  # started on the first recheck
        self.stats: Dict[str, collections.Counter] = {o: collections.Counter() for o in ORACLES}
        # The inline oracle's outcomes per lateral-alias shape (query.shapes).
        self.shape_stats: Dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        self.differences: List[Dict[str, Any]] = []
        self.saved: List[Dict[str, Any]] = []
        self.queries = 0
        self.lateral = 0
        self.out_of_scope = 0
        self.notes: List[str] = []
        self.dialects_active = False

    # -- set-up
    def start(self) -> None:
        self.colsem.start()
        self.vanilla.start()
        c, v = self.colsem.finish_setup(), self.vanilla.finish_setup()
        if not c["loaded"] or v["loaded"]:
            raise RuntimeError(f"colsem loaded: colsem JVM {c['loaded']}, vanilla JVM {v['loaded']}")
        self.duck = Duck(c["locations"])
        self.dialects_active = DIALECT_KEY in c["status"]
        if not self.dialects_active:
            self.notes.append(f"dialect oracle skipped: colsem_status() does not list {DIALECT_KEY} "
                              "(naming dialects are not in this build)")
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
        out_of_scope = out_of_scope_reads(q, self.scopes)
        lateral = has_lateral(q) and not out_of_scope
        sql = render(q)
        c = Case(index, q, sql, inlined_form(q) if lateral else None, lateral,
                 has_star(q), duck_compatible(q), out_of_scope)
        scopes = self.scopes_conf
        col: List[Tuple[str, dict]] = [("c", {"op": "run", "sql": sql})]
        van: List[Tuple[str, dict]] = [("v", {"op": "run", "sql": sql})]
        if lateral:
            van.append(("vi", {"op": "run", "sql": c.isql}))
        if c.star or index % 8 == 0:
            col.append(("cs", {"op": "run", "sql": sql, "session": "star", "conf": {**STAR_CONF, **scopes}}))
        if self.dialects_active:
            for d in DIALECTS:
                for run in (1, 2):
                    col.append((f"d:{d}:{run}", {"op": "run", "sql": sql, "session": f"dialect-{d}-{run}",
                                                 "conf": {DIALECT_KEY: d, **scopes}, "collect": False}))
        c.requests = {"colsem": col, "vanilla": van}
        return c

    def run_cases(self, cases: List[Case]) -> List[Dict[str, Dict[str, Any]]]:
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
            res: Dict[str, Dict[str, Any]] = {}
            for key, _ in c.requests["colsem"]:
                res[key] = col_answers[ci]
                ci += 1
            for key, _ in c.requests["vanilla"]:
                res[key] = van_answers[vi]
                vi += 1
            results.append(res)
        return results

    def recheck_reference(self, case: Case, res: Dict[str, Dict[str, Any]],
                          stats: Dict[str, collections.Counter]) -> Dict[str, Dict[str, Any]]:
        """The answers, with the reference's failure replaced by a young vanilla JVM's answer when
        that failure would make a difference (colsem answered rows, or the reference ran out of
        memory). A vanilla JVM that has run tens of thousands of stages can fail a query a fresh one
        answers: seed 1 saw AGGREGATE_OUT_OF_MEMORY on 8-row tables, and a NullPointerException in
        JoinedRow (query 7535, stage 25,643). The recheck JVM runs only rechecks, so it stays
        young; colsem's answers are never run again."""
        key, oracle = ("vi", "inline") if case.lateral else ("v", "vanilla")
        first = res[key]
        if "error" not in first or not (is_out_of_memory(first) or "error" not in res["c"]):
            return res
        if self.recheck_worker is None:
            self.recheck_worker = Worker("vanilla", self.workdir, self.tables)
            self.recheck_worker.start()
        request = dict(case.requests["vanilla"])[key]
        answer = self.recheck_worker.call([request], self.args.query_timeout)[0]
        stats[oracle]["reference_rechecked"] += 1
        if "error" not in answer or answer["error"]["class"] != first["error"]["class"]:
            stats[oracle]["reference_recovered"] += 1
        return {**res, key: answer}

    # -- the oracles
    def evaluate(self, case: Case, res: Dict[str, Dict[str, Any]], count: bool = True) -> List[Difference]:
        diffs: List[Difference] = []
        stats = self.stats if count else {o: collections.Counter() for o in ORACLES}
        res = self.recheck_reference(case, res, stats)
        c, v = res["c"], res["v"]

        def diff(oracle: str, kind: str, **detail: Any) -> None:
            diffs.append(Difference(oracle, kind, detail))

        # 1. colsem (defaults) vs vanilla Spark.
        st = stats["vanilla"]
        st["checked"] += 1
        if is_fatal(c) and same_failure(c, v):
            st["same_fatal_error"] += 1
        elif is_fatal(c):
            diff("vanilla", "fatal", colsem=brief(c), vanilla=brief(v))
        elif "error" not in v:
            if "error" in c:
                diff("vanilla", "colsem_error", colsem=brief(c), vanilla=brief(v))
            elif c["schema"] != v["schema"]:
                diff("vanilla", "schema", colsem=brief(c), vanilla=brief(v))
            elif not rows_equal(c["rows"], v["rows"], total_order(case.q, len(c["schema"]))):
                diff("vanilla", "rows", colsem=brief(c, 50), vanilla=brief(v, 50))
            else:
                st["same_rows"] += 1
        elif "error" in c:
            if case.out_of_scope and c["error"]["class"] != v["error"]["class"]:
                # Refused for the alias out of scope (the hint names the setting), where vanilla
                # fails first on something else (its native lateral aliases, say).
                if c["error"]["class"].startswith("UNRESOLVED_COLUMN") and SCOPES_KEY in c["error"]["message"]:
                    st["out_of_scope_refused"] += 1
                else:
                    diff("vanilla", "out_of_scope_error", colsem=brief(c), vanilla=brief(v))
            elif c["error"]["class"] != v["error"]["class"] and not case.lateral:
                diff("vanilla", "error_class", colsem=brief(c), vanilla=brief(v))
            else:
                st["same_error" if c["error"]["class"] == v["error"]["class"] else "lateral_other_error"] += 1
        elif case.lateral:
            st["lateral_only_colsem"] += 1  # oracle 2 checks these
        else:
            diff("vanilla", "colsem_accepts", colsem=brief(c), vanilla=brief(v))

        # 2. lateral aliases vs their inlined form (vanilla Spark), and DuckDB.
        if case.lateral:
            st = stats["inline"]
            st["checked"] += 1
            vi = res["vi"]
            if is_fatal(c) and same_failure(c, vi):
                st["same_fatal_error"] += 1
            elif is_fatal(c):
                diff("inline", "fatal", colsem=brief(c), inlined=brief(vi))
            elif "error" in vi:
                if "error" in c:
                    st["both_error"] += 1
                else:
                    diff("inline", "inlined_fails", colsem=brief(c), inlined=brief(vi))
            elif "error" in c:
                diff("inline", "colsem_error", colsem=brief(c), inlined=brief(vi))
            elif inline_types(c["schema"]) != inline_types(vi["schema"]):
                diff("inline", "types", colsem=brief(c), inlined=brief(vi))
            elif not rows_equal(c["rows"], vi["rows"], total_order(case.q, len(c["schema"]))):
                diff("inline", "rows", colsem=brief(c, 50), inlined=brief(vi, 50))
            else:
                st["same_rows"] += 1
            if count:
                outcome = ("difference" if any(d.oracle == "inline" for d in diffs)
                           else "both_error" if "error" in vi else "same_rows")
                for shape in shapes(case.q):
                    self.shape_stats[shape][outcome] += 1
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
                    diff("duckdb", "rows", colsem=brief(c, 50), duckdb={"form": form, "rows": d["rows"][:50]})
                else:
                    st["same_rows"] += 1

        # A fatal error vanilla Spark meets on the same query (or its inlined form) is Spark's own.
        def spark_fails_alike(answer: Dict[str, Any]) -> bool:
            return any(same_failure(answer, res[k]) for k in ("v", "vi") if k in res)

        # 3. naming dialects: no internal error, the same names run after run.
        if self.dialects_active:
            st = stats["dialects"]
            for dialect in DIALECTS:
                st["checked"] += 1
                one, two = res[f"d:{dialect}:1"], res[f"d:{dialect}:2"]
                if (is_fatal(one) or is_fatal(two)) and spark_fails_alike(one) and spark_fails_alike(two):
                    st["same_fatal_error"] += 1
                elif is_fatal(one) or is_fatal(two):
                    diff("dialects", "fatal", dialect=dialect, first=brief(one), second=brief(two))
                elif one.get("schema") != two.get("schema") or ("error" in one) != ("error" in two):
                    diff("dialects", "unstable", dialect=dialect, first=brief(one), second=brief(two))
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
                    diff("star", "explicit_missing", missing=missing, star=brief(cs), default=brief(c))
                elif extra:
                    diff("star", "extra_columns", extra=sorted(extra), star=brief(cs), default=brief(c))
                elif len(cs["rows"]) != len(c["rows"]) and not dedupes(case.q):
                    diff("star", "row_count", star=brief(cs), default=brief(c))
                else:
                    st["ok"] += 1
            else:
                st["errors"] += 1
        known = [d for d in diffs if any(o == d.oracle and k == d.kind and test(case, c, v)
                                         for o, k, test in KNOWN_OPEN)]
        for d in known:
            stats[d.oracle]["known_open"] += 1
        diffs = [d for d in diffs if d not in known]
        for d in diffs:
            stats[d.oracle]["differences"] += 1
        return diffs

    # -- failures
    def check_one(self, q: Query, index: int) -> List[Difference]:
        case = self.make_case(index, q)
        return self.evaluate(case, self.run_cases([case])[0], count=False)

    def handle(self, case: Case, diffs: List[Difference]) -> None:
        for d in diffs:
            record = {"index": case.index, "seed": self.args.seed, "oracle": d.oracle, "kind": d.kind,
                      "sql": case.sql, "inlined": case.isql, "detail": d.detail}
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
        if d.oracle == "inline":
            named = alias_all(small)
            if still_fails(named):
                small = named
        final = self.check_one(small, case.index)
        detail = next((x.detail for x in final if x.signature == d.signature), d.detail)
        entry = {"index": case.index, "seed": self.args.seed, "oracle": d.oracle, "kind": d.kind,
                 "sql": render(small),
                 # The golden reference: the inlined form only where that is the oracle's reference.
                 "inlined": inlined_form(small) if d.oracle == "inline" and has_lateral(small) else None,
                 "original": case.sql, "detail": detail}
        self.saved.append(entry)
        print(f"[fuzz] minimal: {entry['sql']}", file=sys.stderr)
        if self.args.save_regressions:
            self.save_regression(entry)

    def save_regression(self, entry: Dict[str, Any], force: bool = False) -> None:
        """Append the minimal query to tests/sql/inputs/fuzz_regressions.sql; its expected
        output comes from vanilla Spark (the query itself, or its inlined form for a lateral
        alias query), rendered by tests/golden.py."""
        header = ["-- Minimal queries the differential fuzzer (make fuzz) found failing; expected",
                  "-- output from vanilla Spark (for the inline oracle: the inlined form's rows).",
                  "-- The tables are the fuzzer's (fuzz/data.py); aliases are read in WHERE and in",
                  "-- subqueries too, as in the runs that found them."]
        creates = [data.create_sql(t, properties=False) for t in data.SCHEMAS] + [f"SET {SCOPES_KEY}={','.join(SCOPES)}"]
        queries: List[Tuple[str, Optional[str]]] = []
        if GOLDEN_INPUT.exists():
            sys.path.insert(0, str(ROOT / "tests"))
            from golden import statements

            queries = [(stmt, None) for stmt in statements(GOLDEN_INPUT.read_text())
                       if not stmt.upper().startswith(("CREATE", "SET"))]
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

        queries = [s for s in statements(GOLDEN_INPUT.read_text()) if not s.upper().startswith(("CREATE", "SET"))]
        last = queries.pop()
        inlined = self._inlined_map().get(last)
        self.save_regression({"sql": last, "inlined": inlined}, force=True)

    def _inlined_map(self) -> Dict[str, Optional[str]]:
        path = RESULTS / "regressions_inlined.json"
        return json.loads(path.read_text()) if path.exists() else {}

    # -- the run
    def run(self) -> Dict[str, Any]:
        """The run and its report. The signal handlers are in place before the JVMs start, so a
        Ctrl-C during start-up also ends with a report (of the queries run: none); a second one
        stops the workers and exits without one."""
        previous = {sig: signal.signal(sig, self._request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            return self._run()
        except KeyboardInterrupt:
            self.stop()
            print("\n[fuzz] stopped at once: no report written", file=sys.stderr, flush=True)
            raise SystemExit(130) from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _run(self) -> Dict[str, Any]:
        args = self.args
        start = time.monotonic()
        self.start()
        setup_seconds = time.monotonic() - start
        t0 = time.monotonic()
        index = args.first
        last_print = 0.0
        while (self.queries < args.count and time.monotonic() - t0 < args.seconds
               and not self.stop_requested):
            n = min(args.batch, args.count - self.queries)
            cases = [self.case(index + i) for i in range(n)]
            index += n
            results = self.run_cases(cases)
            for case, res in zip(cases, results):
                self.queries += 1
                self.lateral += case.lateral
                self.out_of_scope += bool(case.out_of_scope)
                diffs = self.evaluate(case, res)
                if diffs:
                    self.handle(case, diffs)
            now = time.monotonic()
            if now - last_print > 1.0 or self.queries >= args.count:
                last_print = now
                rate = self.queries / max(now - t0, 1e-9)
                print(f"\r[fuzz] {self.queries}/{args.count} queries  {rate:.1f} q/s  "
                      f"differences: {len(self.differences)}   ", end="", file=sys.stderr, flush=True)
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
        print(f"\n[fuzz] {signal.Signals(signum).name}: stopping after this batch and writing the report "
              "(again to stop at once)", file=sys.stderr, flush=True)

    def report(self, elapsed: float, setup_seconds: float) -> Dict[str, Any]:
        report = {
            "seed": self.args.seed, "first": self.args.first, "count_requested": self.args.count,
            "seconds_limit": self.args.seconds, "stopped_early": self.stop_requested, "queries": self.queries,
            "lateral_queries": self.lateral, "lateral_scopes": ",".join(s for s in SCOPES if s in self.scopes),
            "out_of_scope_queries": self.out_of_scope, "seconds": round(elapsed, 1),
            "setup_seconds": round(setup_seconds, 1),
            "queries_per_second": round(self.queries / max(elapsed, 1e-9), 2),
            "oracles": {o: dict(sorted(self.stats[o].items())) for o in ORACLES},
            "shapes": {s: dict(sorted(c.items())) for s, c in sorted(self.shape_stats.items())},
            "differences": len(self.differences), "notes": self.notes,
            "minimal_failures": self.saved, "all_differences": self.differences[:200],
            "worker_starts": {"colsem": self.colsem.starts, "vanilla": self.vanilla.starts},
        }
        out = Path(self.args.report_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
        (out / "latest.md").write_text(markdown(report))
        return report


def markdown(r: Dict[str, Any]) -> str:
    lines = ["# colsem differential fuzzer: latest run", "",
             f"`make fuzz FUZZ_ARGS=\"--seed {r['seed']} --count {r['count_requested']} "
             f"--seconds {r['seconds_limit']} --lateral-scopes '{r['lateral_scopes']}'\"`", "",
             "| | |", "|---|---|",
             f"| seed | {r['seed']} |", f"| queries | {r['queries']} ({r['lateral_queries']} with lateral aliases) |",
             f"| {SCOPES_KEY} | {r['lateral_scopes'] or '(empty, the default)'} ({r['out_of_scope_queries']} queries read an alias "
             "in a scope it leaves out: vanilla's refusal expected) |",
             f"| seconds (after {r['setup_seconds']} s start-up) | {r['seconds']}"
             f"{' (stopped early by a signal)' if r.get('stopped_early') else ''} |",
             f"| queries/second | {r['queries_per_second']} |",
             f"| differences | {r['differences']} |", "",
             "| oracle | checked | differences | other counts |", "|---|---|---|---|"]
    for o, st in r["oracles"].items():
        other = ", ".join(f"{k} {v}" for k, v in st.items() if k not in ("checked", "differences"))
        lines.append(f"| {o} | {st.get('checked', 0)} | {st.get('differences', 0)} | {other} |")
    lines.append("")
    if r.get("shapes"):
        lines += ["Queries with lateral aliases by shape (the inline oracle; a query may hold several):", "",
                  "| shape | same rows as the inlined form | both refused | differences |", "|---|---|---|---|"]
        for shape, st in r["shapes"].items():
            lines.append(f"| {shape} | {st.get('same_rows', 0)} | {st.get('both_error', 0)} | {st.get('difference', 0)} |")
        lines.append("")
    for n in r["notes"]:
        lines.append(f"- {n}")
    if r["minimal_failures"]:
        lines += ["", "## Minimal failing queries", ""]
        for f in r["minimal_failures"]:
            lines += [f"### {f['oracle']}/{f['kind']} (query {f['index']})", "", "```sql", f["sql"], "```", "",
                      "```json", json.dumps(f["detail"], indent=1)[:3000], "```", ""]
    return "\n".join(lines) + "\n"


def _scopes(value: str) -> List[str]:
    names = [n.strip().upper() for n in value.split(",") if n.strip()]
    bad = [n for n in names if n not in SCOPES]
    if bad:
        raise argparse.ArgumentTypeError(f"{', '.join(bad)}: not a scope (a comma list of {', '.join(SCOPES)})")
    return names


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10000, help="queries to run (at most)")
    p.add_argument("--seconds", type=float, default=3600, help="stop after this long (at most)")
    p.add_argument("--first", type=int, default=0, help="index of the first query (replay)")
    p.add_argument("--batch", type=int, default=25, help="queries sent to the JVMs at once")
    p.add_argument("--lateral-scopes", type=_scopes, default=[], metavar="LIST",
                   help=f"{SCOPES_KEY} of the colsem sessions: a comma list of {', '.join(SCOPES)} "
                        "(default empty, colsem's default); aliases read in a scope it leaves out "
                        "must be refused as vanilla Spark refuses them")
    p.add_argument("--query-timeout", type=float, default=120)
    p.add_argument("--workdir", default=None, help="warehouses and JVM logs (default: a temp dir)")
    p.add_argument("--report-dir", default=str(RESULTS))
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--max-shrinks", type=int, default=5, help="distinct failures to shrink")
    p.add_argument("--shrink-checks", type=int, default=300)
    p.add_argument("--shrink-seconds", type=float, default=240)
    p.add_argument("--save-regressions", action="store_true",
                   help="append minimal failures to tests/sql/inputs/fuzz_regressions.sql")
    p.add_argument("--rerender-regressions", action="store_true",
                   help="re-render tests/sql/results/fuzz_regressions.sql.out from vanilla Spark")
    p.add_argument("--show", action="store_true", help="print the queries instead of running them")
    return p.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
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
    print(json.dumps({k: report[k] for k in ("seed", "queries", "queries_per_second", "differences")}))
    return 1 if report["differences"] else 0
