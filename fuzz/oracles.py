"""The oracles: what colsem's answers must agree with (vanilla Spark, the inlined form, DuckDB)
or keep (the dialects' names, the star strategies' explicit columns), and the tallies of each."""

from __future__ import annotations

import collections
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cases import DIALECTS, SCOPES_KEY, Case, ScopeSetting
from .facts import explicit_names, shapes, sqlite_names
from .tree import Col, Core, GroupingSets, Query, SetOp, SubRef, TableRef, walk

if TYPE_CHECKING:
    from .pool import Duck, Pool

FATAL_MARKERS = ("INTERNAL_ERROR", "StackOverflowError", "Max iterations", "WORKER_LOST")


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


class Oracles:
    """Each query's answers checked by every oracle, under each scope setting, with the tallies
    of a run: `stats` per oracle, `shape_stats` per setting and lateral-alias shape (the inline
    oracle's outcomes). The DuckDB oracle runs once the pool has started (`duck`); the dialect
    oracle where colsem_status() lists the dialect setting (`dialects_active`)."""

    def __init__(
        self, settings: list[ScopeSetting], oracles: list[str], pool: Pool, query_timeout: float
    ):
        self.settings = settings
        self.oracles = oracles
        self.pool = pool
        self.query_timeout = query_timeout
        self.stats: dict[str, collections.Counter] = {o: collections.Counter() for o in oracles}
        # The inline oracle's outcomes per setting label and lateral-alias shape (facts.shapes).
        self.shape_stats: dict[str, dict[str, collections.Counter]] = {
            s.label: collections.defaultdict(collections.Counter) for s in settings
        }
        self.duck: Duck | None = None
        self.dialects_active = False

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
            answer = self.pool.recheck(dict(case.requests["vanilla"])[key], self.query_timeout)
            rechecked.add(key)
            stats[setting.oracle(oracle)]["reference_rechecked"] += 1
            if "error" not in answer or answer["error"]["class"] != first["error"]["class"]:
                stats[setting.oracle(oracle)]["reference_recovered"] += 1
            res = {**res, key: answer}
        return res

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
