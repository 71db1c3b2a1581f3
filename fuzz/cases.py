"""What one generated query is run as: the settings every query runs under, the query's texts
(as written, inlined), and the requests each JVM answers for it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyspark

from . import data
from .facts import duck_compatible, has_lateral, has_star, out_of_scope_reads
from .render import render
from .tree import Query

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


def inlined_form(q: Query) -> str:
    """The hand-inlined form, vanilla Spark's answer to which is the reference. On Spark 3.5 to
    4.1 a grouped alias inside ROLLUP, CUBE and GROUPING SETS is written out too (query._group)."""
    return render(q, inline=True, sets_written_out=SETS_WRITTEN_OUT)


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


def make_case(index: int, q: Query, settings: list[ScopeSetting], dialects_active: bool) -> Case:
    """The query's case: its texts, what the oracles need to know of it, and the requests each
    JVM runs for it (colsem's default session, one per further scope setting, the star and
    dialect sessions; vanilla's query and inlined form)."""
    out_of_scope = {s.label: out_of_scope_reads(q, set(s.scopes)) for s in settings}
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
    scopes = {SCOPES_KEY: settings[0].value}
    col: list[tuple[str, dict]] = [("c", {"op": "run", "sql": sql})]
    for s in settings[1:]:
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
    if dialects_active:
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
