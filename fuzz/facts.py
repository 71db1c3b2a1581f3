"""Facts about a generated query that decide which oracles apply and how its outcome is
tallied: its lateral aliases and stars, the names it should get, the shapes it holds, whether
DuckDB can run it."""

from __future__ import annotations

from .render import expression
from .tree import (
    Agg,
    B,
    Bin,
    Case,
    Col,
    Core,
    Exists,
    Field,
    Func,
    GroupAlias,
    GroupAll,
    Grouping,
    GroupingSets,
    GroupOrdinal,
    I,
    InSub,
    IsNull,
    Item,
    Join,
    LatRef,
    Lit,
    Query,
    S,
    ScalarSub,
    StarItem,
    TableRef,
    Un,
    When,
    Win,
    aggregates,
    alias_reads,
    walk,
)


def has_lateral(q: Query) -> bool:
    return any(isinstance(n, LatRef) for n in walk(q))


def has_star(q: Query) -> bool:
    return any(isinstance(n, StarItem) for n in walk(q))


def explicit_names(q: Query) -> list[str]:
    """Output names of the top SELECT list's items that name a column or an alias explicitly."""
    if not isinstance(q.body, Core):
        return []
    names = []
    for it in q.body.items:
        if isinstance(it, Item):
            if it.alias:
                names.append(it.alias)
            elif isinstance(it.e, Col):
                names.append(it.e.show)
    return names


def sqlite_names(q: Query) -> list[str | None] | None:
    """The names `spark.colsem.naming.dialect=sqlite` gives the top SELECT list: an alias's, and any
    other item's text exactly as rendered (SQLite's rule, docs/naming.md); None for a bare column,
    struct field or alias, which keeps the name Spark gives it (the table's spelling for a table's
    column, as written for a subquery's, the alias's for an alias). None when columns are not one
    per item (a star, a set operation)."""
    body = q.body
    if not isinstance(body, Core) or any(isinstance(it, StarItem) for it in body.items):
        return None
    names: list[str | None] = []
    for it in body.items:
        assert isinstance(it, Item)
        if it.alias:
            names.append(it.alias)
        elif isinstance(it.e, (Col, Field, LatRef)):
            names.append(None)
        else:
            names.append(expression(it.e))
    return names


def out_of_scope_reads(q: Query, scopes: set[str]) -> list[str]:
    """The scopes (WHERE, SUBQUERY) in which the query reads a select-list alias though `scopes`
    (spark.colsem.lateralAlias.extraScopes) leaves them out: colsem must refuse it as vanilla does."""
    return sorted(
        {n.scope for n in walk(q) if isinstance(n, LatRef) and n.scope and n.scope not in scopes}
    )


def _reads_alias(n: object) -> bool:
    """A lateral alias reference in `n`, not counting nested queries."""
    return bool(alias_reads(n))


def shapes(q: Query) -> list[str]:
    """The lateral-alias shapes of docs/lateral-aliases.md a query holds (each SELECT that reads
    an alias counts for its own clauses), for the fuzzer's per-shape tally."""
    found = set()
    for c in (n for n in walk(q) if isinstance(n, Core)):
        items = [it for it in c.items if isinstance(it, Item)]
        if not any(_reads_alias(it.e) for it in items) and not _reads_alias(c.where):
            if not any(
                isinstance(n, LatRef) and n.scope == "SUBQUERY"
                for x in walk(c.items)
                if isinstance(x, (ScalarSub, InSub, Exists))
                for n in walk(x.q)
            ):
                continue
        grouped = c.group is not None or any(aggregates(it.e) for it in items)
        for g in c.group or []:
            found.add(
                {
                    GroupAlias: "GROUP BY alias",
                    GroupOrdinal: "GROUP BY ordinal",
                    GroupAll: "GROUP BY ALL",
                    GroupingSets: getattr(g, "kind", ""),
                }.get(type(g), "GROUP BY column")
            )
        if any(isinstance(x, Grouping) for x in walk(c.items)):
            found.add("grouping() over an alias")
        if any(isinstance(x, Win) and _reads_alias(x) for x in walk(c.items)):
            found.add(
                "window in a grouped query over an alias" if grouped else "window over an alias"
            )
        if any(isinstance(x, Agg) and _reads_alias(x.arg) for x in walk(c.items)):
            found.add("alias inside an aggregate")
        if any(r.scope == "WHERE" for r in alias_reads(c.where)):
            found.add("alias in WHERE")
        for x in walk(c.items):
            if isinstance(x, (ScalarSub, InSub, Exists)) and any(
                isinstance(y, Core) and _reads_alias(y.where) for y in walk(x.q)
            ):
                found.add(
                    "alias in a subquery of an aggregate list"
                    if grouped
                    else {
                        ScalarSub: "alias in a correlated scalar subquery",
                        InSub: "alias in a correlated IN",
                        Exists: "alias in a correlated EXISTS",
                    }[type(x)]
                )
    return sorted(found)


DUCK_FUNCS = {"coalesce", "upper", "lower", "length", "abs"}
DUCK_OPS = {"+", "-", "*", "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "||"}


def duck_compatible(q: Query) -> bool:
    """The conservative subset DuckDB and Spark agree on: one SELECT over tables (inner/left
    joins ON), integer/string/boolean values, arithmetic, comparisons, CASE, COALESCE, a few
    string functions, count/sum/min/max, GROUP BY/HAVING."""
    if q.ctes or not isinstance(q.body, Core):
        return False
    c = q.body
    if c.distinct:
        return False
    for s in [c.source] + [j.right for j in c.joins]:
        if not isinstance(s, TableRef):
            return False
    if any(j.using for j in c.joins):
        return False
    for n in walk(c):
        # Not GROUP BY ALL: over constant items only, Spark groups (one row), DuckDB does not.
        if isinstance(
            n, (Core, Item, TableRef, Join, When, Case, LatRef, IsNull, GroupAlias, GroupOrdinal)
        ):
            continue
        if isinstance(n, Col):
            if n.typ != I and n.typ != S:
                return False
        elif isinstance(n, Lit):
            if n.typ not in (I, S, B):
                return False
        elif isinstance(n, Bin):
            if n.op not in DUCK_OPS:
                return False
        elif isinstance(n, Un):
            pass
        elif isinstance(n, Func):
            if n.name not in DUCK_FUNCS:
                return False
        elif isinstance(n, Agg):
            if n.fn not in ("count", "sum", "min", "max"):
                return False
        else:
            return False
    return True
