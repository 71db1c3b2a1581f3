"""The query tree's SQL: as written, and with every lateral alias reference replaced by the
alias's parenthesized expression (the inline oracle's reference)."""

from __future__ import annotations

import contextvars
import re

from .tree import (
    Agg,
    Bin,
    Case,
    Cast,
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
    InList,
    InSub,
    IsNull,
    Item,
    LatRef,
    Lit,
    Node,
    Query,
    ScalarSub,
    SetOp,
    StarItem,
    TableRef,
    Un,
    Win,
    aggregates,
    walk,
)

BIN_SQL = {"AND": " AND ", "OR": " OR "}


def render(q: Query, inline: bool = False, sets_written_out: bool = False) -> str:
    """The query's SQL; inline: every lateral alias replaced by its item's expression.
    sets_written_out: in the inlined form, a grouped alias inside ROLLUP, CUBE and GROUPING SETS
    is written as that expression too (see _group)."""
    token = _SETS_WRITTEN_OUT.set(sets_written_out)
    try:
        return _query(q, inline)
    finally:
        _SETS_WRITTEN_OUT.reset(token)


_SETS_WRITTEN_OUT: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "sets_written_out", default=False
)
# An inlined expression GROUP BY would read as an ordinal (or a negated one).
_ORDINAL_LIKE = re.compile(r"^[\s()\-\d]+$")


# Inlined, an alias read inside a subquery of its SELECT list becomes an outer reference: its
# expression is rendered with every column qualified, so no column of the subquery's own FROM can
# capture it (the generator only reads there aliases whose expression allows that).
Env = dict[str, str]


def _query(q: Query, inline: bool, outer: Env | None = None) -> str:
    parts = []
    if q.ctes:
        parts.append("WITH " + ", ".join(f"{c.name} AS ({_query(c.q, inline)})" for c in q.ctes))
    parts.append(_body(q.body, inline, outer or {}))
    if q.order:
        parts.append("ORDER BY " + ", ".join(f"{p}{' DESC' if d else ''}" for p, d in q.order))
    return " ".join(parts)


def _body(b: Node, inline: bool, outer: Env) -> str:
    if isinstance(b, SetOp):
        return f"{_core(b.left, inline, outer)} {b.op} {_core(b.right, inline, outer)}"
    return _core(b, inline, outer)


def _source(s: Node, inline: bool) -> str:
    if isinstance(s, TableRef):
        return f"{s.table} AS {s.alias}"
    return f"({_query(s.q, inline)}) AS {s.alias}"


# The derived table the inlined form of an aggregate list's alias-reading subqueries reads.
DERIVED = "colsem_groups"


def _subqueries_over_groups(c: Core) -> list[int]:
    """The items of an aggregate list that are subqueries reading the list's aliases (colsem
    evaluates them above the Aggregate, under extraScopes=SUBQUERY)."""
    grouped = c.group is not None or any(
        isinstance(it, Item) and aggregates(it.e) for it in c.items
    )
    return [
        i
        for i, it in enumerate(c.items)
        if grouped
        and isinstance(it, Item)
        and isinstance(it.e, ScalarSub)
        and any(isinstance(n, LatRef) and n.scope == "SUBQUERY" for n in walk(it.e))
    ]


def _derived_core(c: Core, subqueries: list[int], outer: Env) -> str:
    """The inlined form of an aggregate list whose subqueries read its aliases: the list without
    them as a derived table, and above it every item by name, the subqueries reading the derived
    table's columns (vanilla Spark has no other form: an aggregate inlined into a subquery's WHERE
    is INVALID_WHERE_CONDITION)."""
    inner = Core(
        [it for i, it in enumerate(c.items) if i not in subqueries],
        c.source,
        c.joins,
        c.where,
        c.group,
        c.having,
        c.distinct,
    )
    columns: Env = {
        it.alias.lower(): f"{DERIVED}.`{it.alias}`"
        for it in inner.items
        if isinstance(it, Item) and it.alias
    }
    items = [
        f"{_e(it.e, True, columns, columns)} AS {it.alias}"
        if i in subqueries
        else f"{DERIVED}.`{it.alias}` AS {it.alias}"
        for i, it in enumerate(c.items)
        if isinstance(it, Item)
    ]
    return f"SELECT {', '.join(items)} FROM ({_core(inner, True, outer)}) AS {DERIVED}"


def _core(c: Core, inline: bool, outer: Env) -> str:
    subqueries = _subqueries_over_groups(c) if inline else []
    if subqueries:
        return _derived_core(c, subqueries, outer)
    # env: an alias's inlined text in this SELECT list; qenv: the same, columns qualified, for
    # subqueries (outer: the enclosing list's qenv, for a subquery's own items).
    env: Env = dict(outer)
    qenv: Env = dict(outer)
    items = []
    # Each item's inlined expression by its GROUP BY ordinal (positions are known without a star).
    by_ordinal: dict[int, str] = {}
    for it in c.items:
        if isinstance(it, StarItem):
            text = f"{it.qual}.*" if it.qual else "*"
            if it.except_:
                text += " EXCEPT (" + ", ".join(it.except_) + ")"
            items.append(text)
            continue
        text = _e(it.e, inline, env, qenv)
        by_ordinal[len(items) + 1] = f"({text})"
        if it.alias:
            items.append(f"{text} AS {it.alias}")
            if inline:
                env[it.alias.lower()] = f"({text})"
                qenv[it.alias.lower()] = f"({_e(it.e, inline, qenv, qenv, qualify=True)})"
        else:
            items.append(text)
    out = "SELECT " + ("DISTINCT " if c.distinct else "") + ", ".join(items)
    out += " FROM " + _source(c.source, inline)
    for j in c.joins:
        out += f" {j.kind} {_source(j.right, inline)}"
        if j.using:
            out += " USING (" + ", ".join(j.using) + ")"
        elif j.on is not None:
            out += " ON " + _e(j.on, inline, {}, {})
    if c.where is not None:
        # A select alias in WHERE (the generator reads there only per-row aliases with no subquery).
        out += " WHERE " + _e(c.where, inline, env, {})
    if c.group:
        if inline and _SETS_WRITTEN_OUT.get():
            written = {
                **env,
                **({} if any(isinstance(it, StarItem) for it in c.items) else by_ordinal),
            }
        else:
            written = {}
        out += " GROUP BY " + ", ".join(_group(g, inline, written) for g in c.group)
    if c.having is not None:
        out += " HAVING " + _e(c.having, inline, {}, {})
    return out


def _group(g: Node, inline: bool, written: dict[str | int, str], in_sets: bool = False) -> str:
    """A GROUP BY element. Aliases and ordinals stay as they are in the inlined form too: vanilla
    Spark resolves them (spark.sql.groupByAliases, groupByOrdinal) to the items, whose aliases are
    inlined. The expression written in their place would differ: an integer literal would be an
    ordinal, and `CAST(0 AS INT)` would not match the item `0`, which CUBE then would not null.
    Except inside ROLLUP, CUBE and GROUPING SETS with sets_written_out (written: the inlined
    expressions by alias name and ordinal): Spark 3.5 to 4.1 group there by the item's own column, which
    no other inlined item matches (MISSING_AGGREGATION for `least(k, y) AS a2, least(k, y) AS v
    ... ROLLUP(a2)`, and a constant `lower('')` in another item is not nulled)."""

    def written_out(key: str | int, as_is: str) -> str:
        text = written.get(key)
        return text if in_sets and text and not _ORDINAL_LIKE.match(text) else as_is

    if isinstance(g, GroupAlias):
        return written_out(g.name.lower(), g.name)
    if isinstance(g, GroupOrdinal):
        return written_out(g.pos, str(g.pos))
    if isinstance(g, GroupAll):
        return "ALL"
    if isinstance(g, GroupingSets):
        sets = [
            "(" + ", ".join(_group(x, inline, written, in_sets=True) for x in s) + ")"
            for s in g.sets
        ]
        return (
            "GROUPING SETS (" + ", ".join(sets) + ")"
            if g.kind == "GROUPING SETS"
            else f"{g.kind}{sets[0]}"
        )
    return _e(g, inline, {}, {})


def _e(n: Node, inline: bool, env: Env, qenv: Env, qualify: bool = False) -> str:
    r = lambda x: _e(x, inline, env, qenv, qualify)  # noqa: E731
    if isinstance(n, Col):
        qual = n.qual or (n.owner if qualify else None)
        return f"{qual}.{n.show}" if qual else n.show
    if isinstance(n, Lit):
        return n.text
    if isinstance(n, LatRef):
        return env.get(n.name, n.show) if inline else n.show
    if isinstance(n, Bin):
        return f"({r(n.l)}{BIN_SQL.get(n.op, ' ' + n.op + ' ')}{r(n.r)})"
    if isinstance(n, Un):
        return f"(NOT {r(n.e)})" if n.op == "NOT" else f"(- {r(n.e)})"
    if isinstance(n, IsNull):
        return f"({r(n.e)} IS {'NOT ' if n.neg else ''}NULL)"
    if isinstance(n, Case):
        whens = " ".join(f"WHEN {r(w.cond)} THEN {r(w.val)}" for w in n.whens)
        return f"CASE {whens}{' ELSE ' + r(n.els) if n.els is not None else ''} END"
    if isinstance(n, Func):
        return f"{n.name}({', '.join(r(a) for a in n.args)})"
    if isinstance(n, Cast):
        return f"CAST({r(n.e)} AS {n.to})"
    if isinstance(n, Field):
        return f"{r(n.e)}.{n.fname}"
    if isinstance(n, Agg):
        if n.arg is None:
            return f"{n.fn}(*)"
        return f"{n.fn}({'DISTINCT ' if n.distinct else ''}{r(n.arg)})"
    if isinstance(n, Win):
        spec = []
        if n.partition:
            spec.append("PARTITION BY " + ", ".join(r(p) for p in n.partition))
        if n.order:
            spec.append(
                "ORDER BY " + ", ".join(r(o.e) + (" DESC" if o.desc else "") for o in n.order)
            )
        return f"{n.fn}({r(n.arg) if n.arg is not None else ''}) OVER ({' '.join(spec)})"
    if isinstance(n, Grouping):
        return f"{n.fn}({', '.join(r(a) for a in n.args)})"
    if isinstance(n, InList):
        return f"({r(n.e)} {'NOT ' if n.neg else ''}IN ({', '.join(r(i) for i in n.items)}))"
    if isinstance(n, ScalarSub):
        return f"({_query(n.q, inline, qenv)})"
    if isinstance(n, InSub):
        return f"({r(n.e)} {'NOT ' if n.neg else ''}IN ({_query(n.q, inline, qenv)}))"
    if isinstance(n, Exists):
        return f"({'NOT ' if n.neg else ''}EXISTS ({_query(n.q, inline, qenv)}))"
    raise TypeError(type(n).__name__)


def expression(n: Node) -> str:
    """An expression's SQL as written (no alias inlined)."""
    return _e(n, False, {}, {})
