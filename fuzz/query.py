"""The generator's query AST, its SQL rendering (as written, and with every lateral alias
reference replaced by the alias's parenthesized expression), and the random generator.

The AST is plain dataclasses so the shrinker can rebuild any node with one child changed.
A lateral alias reference (`LatRef`) holds the alias name only; the renderer finds the
expression of the earlier item of that name in the same SELECT list, so shrinking stays valid."""

from __future__ import annotations

import contextvars
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .data import SCHEMAS, column_types

# Generation types: integral, double, string, boolean, date, array<int>.
I, D, S, B, DT, ARR = "i", "d", "s", "b", "dt", "arr"
SPARK_TYPE_KIND = {
    "int": I,
    "bigint": I,
    "double": D,
    "string": S,
    "boolean": B,
    "date": DT,
    "array<int>": ARR,
}


class Node:
    """Base of every AST node."""


# ---------------------------------------------------------------- expressions
@dataclass
class Col(Node):
    qual: str | None
    name: str
    typ: str
    show: str  # the spelling used (case varies; Spark and DuckDB are case-insensitive)
    owner: str = ""  # the table alias the column comes from, even when qual is None


@dataclass
class Lit(Node):
    text: str
    typ: str


@dataclass
class Bin(Node):
    op: str
    l: Node
    r: Node


@dataclass
class Un(Node):
    op: str  # 'NOT' or '-'
    e: Node


@dataclass
class IsNull(Node):
    e: Node
    neg: bool


@dataclass
class When(Node):
    cond: Node
    val: Node


@dataclass
class Case(Node):
    whens: list[When]
    els: Node | None


@dataclass
class Func(Node):
    name: str
    args: list[Node]


@dataclass
class Cast(Node):
    e: Node
    to: str


@dataclass
class Field(Node):
    e: Node
    fname: str


@dataclass
class Agg(Node):
    fn: str
    arg: Node | None  # None: count(*)
    distinct: bool = False


@dataclass
class OrderKey(Node):
    e: Node
    desc: bool


@dataclass
class Win(Node):
    fn: str
    arg: Node | None
    partition: list[Node]
    order: list[OrderKey]


@dataclass
class LatRef(Node):
    name: str  # lower-case alias name
    show: str
    typ: str
    # Where it reads the alias beyond a later item of its own SELECT list: "WHERE" (the list's own
    # WHERE) or "SUBQUERY" (a subquery of a later item), the scopes of
    # spark.colsem.lateralAlias.extraScopes; "" for the list itself.
    scope: str = ""


@dataclass
class InList(Node):
    e: Node
    items: list[Node]
    neg: bool


@dataclass
class ScalarSub(Node):
    q: Query


@dataclass
class InSub(Node):
    e: Node
    q: Query
    neg: bool


@dataclass
class Exists(Node):
    q: Query
    neg: bool


# ---------------------------------------------------------------- query structure
@dataclass
class Item(Node):
    e: Node
    alias: str | None


@dataclass
class StarItem(Node):
    qual: str | None
    except_: list[str]


@dataclass
class TableRef(Node):
    table: str
    alias: str


@dataclass
class SubRef(Node):
    q: Query
    alias: str


@dataclass
class Join(Node):
    kind: str  # 'JOIN' or 'LEFT JOIN'
    right: Node  # TableRef | SubRef
    on: Node | None
    using: list[str]


@dataclass
class GroupAlias(Node):
    name: str


@dataclass
class GroupOrdinal(Node):
    pos: int  # 1-based position in the SELECT list


@dataclass
class GroupAll(Node):
    """GROUP BY ALL (the only element of Core.group)."""


@dataclass
class GroupingSets(Node):
    kind: str  # 'ROLLUP', 'CUBE' or 'GROUPING SETS'
    sets: list[list[Node]]  # ROLLUP/CUBE: one list of elements; GROUPING SETS: one list per set


@dataclass
class Grouping(Node):
    """grouping(<alias>) or grouping_id(<alias>, ...) over items the GROUP BY names."""

    fn: str
    args: list[Node]


@dataclass
class Core(Node):
    items: list[Node]
    source: Node
    joins: list[Join]
    where: Node | None
    group: list[Node] | None  # None: no GROUP BY (an aggregate query may still have none)
    having: Node | None
    distinct: bool = False


@dataclass
class SetOp(Node):
    op: str
    left: Core
    right: Core


@dataclass
class Cte(Node):
    name: str
    q: Query


@dataclass
class Query(Node):
    ctes: list[Cte]
    body: Node  # Core | SetOp
    order: list[tuple[int, bool]] = field(default_factory=list)  # (1-based position, desc)


# ---------------------------------------------------------------- rendering
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
        isinstance(it, Item) and _aggregates(it.e) for it in c.items
    )
    return [
        i
        for i, it in enumerate(c.items)
        if grouped
        and isinstance(it, Item)
        and isinstance(it.e, ScalarSub)
        and any(isinstance(n, LatRef) and n.scope == "SUBQUERY" for n in walk(it.e))
    ]


def _aggregates(n: object) -> bool:
    """An aggregate call in `n` outside its subqueries (which make their own aggregate lists)."""
    if isinstance(n, Agg):
        return True
    if isinstance(n, Query):
        return False
    if isinstance(n, Node):
        return any(_aggregates(v) for v in vars(n).values())
    if isinstance(n, (list, tuple)):
        return any(_aggregates(v) for v in n)
    return False


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


# ---------------------------------------------------------------- facts about a query
def walk(n: object) -> Iterator[Node]:
    """Every node, depth first (lists and nested queries included)."""
    if isinstance(n, Node):
        yield n
        for v in vars(n).values():
            yield from walk(v)
    elif isinstance(n, (list, tuple)):
        for v in n:
            yield from walk(v)


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
            names.append(_e(it.e, False, {}, {}))
    return names


def out_of_scope_reads(q: Query, scopes: set[str]) -> list[str]:
    """The scopes (WHERE, SUBQUERY) in which the query reads a select-list alias though `scopes`
    (spark.colsem.lateralAlias.extraScopes) leaves them out: colsem must refuse it as vanilla does."""
    return sorted(
        {n.scope for n in walk(q) if isinstance(n, LatRef) and n.scope and n.scope not in scopes}
    )


def _alias_reads(n: object) -> list[LatRef]:
    """The lateral alias references in `n`, not counting nested queries."""
    if isinstance(n, LatRef):
        return [n]
    if isinstance(n, Query):
        return []
    if isinstance(n, Node):
        return [r for v in vars(n).values() for r in _alias_reads(v)]
    if isinstance(n, (list, tuple)):
        return [r for v in n for r in _alias_reads(v)]
    return []


def _reads_alias(n: object) -> bool:
    """A lateral alias reference in `n`, not counting nested queries."""
    return bool(_alias_reads(n))


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
        grouped = c.group is not None or any(_aggregates(it.e) for it in items)
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
        if any(r.scope == "WHERE" for r in _alias_reads(c.where)):
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


# ---------------------------------------------------------------- generation
ALIASES = ["x", "y", "z", "k", "s", "v", "d", "w", "a1", "a2", "a3", "tot", "id2", "m"]


@dataclass
class ColInfo:
    qual: str
    name: str
    typ: str


@dataclass
class LatInfo:
    name: str
    typ: str
    row: bool  # a per-row value (usable inside aggregate arguments)
    clean: bool = False  # per-row, no subquery: may be read in WHERE
    portable: bool = False  # clean, every column qualifiable: may be read inside a subquery
    win: bool = False  # holds a window function (a window may not read it)


@dataclass
class Ctx:
    scope: list[ColInfo]
    outer: list[ColInfo]
    lats: list[LatInfo] = field(default_factory=list)
    agg: bool = False  # in an aggregate query, outside aggregate arguments
    keys: list[ColInfo] = field(default_factory=list)
    windows: bool = False
    subqueries: bool = True
    sub_depth: int = 0
    lat_subqueries: bool = False  # subqueries here may read portable aliases (correlation)
    qualifiable: bool = True  # no USING join: every column of the scope can be qualified


class Generator:
    """Random queries over fa, fb, fc. Every choice comes from one seeded random.Random."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.counter = 0

    # -- helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq: Sequence):
        return seq[self.rng.randrange(len(seq))]

    def qualifier(self) -> str:
        self.counter += 1
        return f"t{self.counter}"

    def spell(self, name: str) -> str:
        return name.upper() if self.chance(0.12) else name

    def col_node(self, ci: ColInfo, ctx_scope: list[ColInfo], force_qual: bool = False) -> Col:
        same = [c for c in ctx_scope if c.name.lower() == ci.name.lower()]
        qualify = force_qual or len(same) > 1 or self.chance(0.3)
        return Col(ci.qual if qualify else None, ci.name, ci.typ, self.spell(ci.name), ci.qual)

    # -- literals
    def literal(self, t: str) -> Lit:
        if t == I:
            return (
                Lit(str(self.rng.randint(-3, 9)), I)
                if self.chance(0.93)
                else Lit("CAST(NULL AS INT)", I)
            )
        if t == D:
            return Lit(self.pick(["0.5", "1.25", "-2.0", "3.75", "CAST(NULL AS DOUBLE)"]), D)
        if t == S:
            return Lit(
                self.pick(["'a'", "'b'", "'p'", "'x'", "''", "'A'", "CAST(NULL AS STRING)"]), S
            )
        if t == B:
            return Lit(self.pick(["true", "false"]), B)
        if t == DT:
            return Lit(self.pick(["DATE '2024-01-01'", "DATE '2024-02-29'"]), DT)
        return Lit(self.pick(["array(1, 2)", "array(3)"]), ARR)

    # -- expressions
    def expr(self, t: str, ctx: Ctx, depth: int) -> Node:
        if depth <= 0 or self.chance(0.35):
            return self.leaf(t, ctx)
        return self.composite(t, ctx, depth - 1)

    def leaf(self, t: str, ctx: Ctx) -> Node:
        options = []
        lats = [l for l in ctx.lats if l.typ == t]
        if lats:
            options += ["lat"] * 3
        if ctx.agg:
            keys = [k for k in ctx.keys if k.typ == t]
            if keys:
                options += ["key"] * 3
            if t in (I, D, S, DT):
                options += ["agg"] * 3
        else:
            cols = [c for c in ctx.scope if c.typ == t]
            if cols:
                options += ["col"] * 4
            if t == I and any(c.typ == "struct" for c in ctx.scope):
                options.append("field")
            if ctx.subqueries and ctx.sub_depth < 2 and t in (I, S, D):
                options.append("scalar")
        options.append("lit")
        choice = self.pick(options)
        if choice == "lat":
            l = self.pick(lats)
            return LatRef(l.name, self.spell(l.name), t)
        if choice == "key":
            k = self.pick([k for k in ctx.keys if k.typ == t])
            return self.col_node(k, ctx.scope)
        if choice == "agg":
            return self.aggregate(t, ctx)
        if choice == "col":
            return self.col_node(self.pick([c for c in ctx.scope if c.typ == t]), ctx.scope)
        if choice == "field":
            st = self.pick([c for c in ctx.scope if c.typ == "struct"])
            return Field(self.col_node(st, ctx.scope), "a")
        if choice == "scalar":
            return ScalarSub(self.scalar_query(t, ctx))
        return self.literal(t)

    def row_ctx(self, ctx: Ctx) -> Ctx:
        """The context inside an aggregate's argument: per-row values."""
        return Ctx(
            ctx.scope,
            ctx.outer,
            [l for l in ctx.lats if l.row],
            agg=False,
            subqueries=False,
            sub_depth=ctx.sub_depth,
        )

    def aggregate(self, t: str, ctx: Ctx) -> Node:
        inner = self.row_ctx(ctx)
        if t == I:
            fn = self.pick(["count", "count", "sum", "min", "max", "countd"])
            if fn == "count" and self.chance(0.4):
                return Agg("count", None)
            if fn == "count":
                return Agg("count", self.expr(self.pick([I, S, D]), inner, 1))
            if fn == "countd":
                return Agg("count", self.expr(self.pick([I, S]), inner, 1), distinct=True)
            return Agg(fn, self.expr(I, inner, 2))
        if t == D:
            fn = self.pick(["avg", "sum", "min", "max"])
            return Agg(fn, self.expr(self.pick([I, D]) if fn == "avg" else D, inner, 2))
        return Agg(self.pick(["min", "max"]), self.expr(t, inner, 1))

    def composite(self, t: str, ctx: Ctx, depth: int) -> Node:
        e = lambda tt, dd=depth: self.expr(tt, ctx, dd)  # noqa: E731
        if t == I:
            c = self.pick(
                [
                    "arith",
                    "arith",
                    "arith",
                    "neg",
                    "case",
                    "coalesce",
                    "abs",
                    "length",
                    "size",
                    "year",
                    "elem",
                    "greatest",
                ]
            )
            if c == "arith":
                return Bin(self.pick(["+", "-", "*"]), e(I), e(I))
            if c == "neg":
                return Un("-", e(I))
            if c == "case":
                return self.case(I, ctx, depth)
            if c == "coalesce":
                return Func("coalesce", [e(I), e(I)])
            if c == "abs":
                return Func("abs", [e(I)])
            if c == "length":
                return Func("length", [e(S)])
            if c == "size":
                return Func("size", [e(ARR)])
            if c == "year":
                return Func("year", [e(DT)])
            if c == "elem":
                return Func("try_element_at", [e(ARR), Lit(str(self.rng.randint(1, 2)), I)])
            return Func(self.pick(["greatest", "least"]), [e(I), e(I)])
        if t == D:
            c = self.pick(["arith", "arith", "div", "cast", "case", "coalesce", "round"])
            if c == "arith":
                return Bin(self.pick(["+", "-", "*"]), e(D), e(self.pick([D, I])))
            if c == "div":
                return Bin("/", e(self.pick([I, D])), Lit(self.pick(["2", "4", "0.5"]), D))
            if c == "cast":
                return Cast(e(I), "DOUBLE")
            if c == "case":
                return self.case(D, ctx, depth)
            if c == "coalesce":
                return Func("coalesce", [e(D), e(D)])
            return Func("round", [e(D), Lit("1", I)])
        if t == S:
            c = self.pick(
                ["concat", "concat", "upper", "lower", "case", "coalesce", "cast", "substr"]
            )
            if c == "concat":
                return Bin("||", e(S), e(S))
            if c in ("upper", "lower"):
                return Func(c, [e(S)])
            if c == "case":
                return self.case(S, ctx, depth)
            if c == "coalesce":
                return Func("coalesce", [e(S), e(S)])
            if c == "cast":
                return Cast(e(I), "STRING")
            return Func("substr", [e(S), Lit("1", I), Lit(str(self.rng.randint(1, 2)), I)])
        if t == B:
            options = [
                "cmp",
                "cmp",
                "cmp",
                "scmp",
                "and",
                "or",
                "not",
                "isnull",
                "inlist",
                "insub",
                "exists",
            ]
            if ctx.lat_subqueries and any(l.portable and l.typ == I for l in ctx.lats):
                options += ["insub", "exists"] * 2  # more correlated subqueries that read an alias
            c = self.pick(options)
            if c == "cmp":
                return Bin(self.pick(["=", "<>", "<", "<=", ">", ">="]), e(I), e(I))
            if c == "scmp":
                return Bin(self.pick(["=", "<>", "<", ">="]), e(S), e(S))
            if c in ("and", "or"):
                return Bin(c.upper(), e(B), e(B))
            if c == "not":
                return Un("NOT", e(B))
            if c == "isnull":
                return IsNull(e(self.pick([I, S, D])), self.chance(0.5))
            if c == "inlist":
                return InList(
                    e(I), [self.literal(I) for _ in range(self.rng.randint(1, 3))], self.chance(0.3)
                )
            if ctx.subqueries and not ctx.agg and ctx.sub_depth < 2:
                if c == "insub":
                    tt = self.pick([I, S])
                    return InSub(e(tt, 0), self.in_query(tt, ctx), self.chance(0.3))
                return Exists(self.exists_query(ctx), self.chance(0.3))
            return Bin(">", e(I), e(I))
        if t == DT:
            return Func("date_add", [e(DT), e(I, 0)])
        if t == ARR:
            if self.chance(0.5):
                return Func("array", [e(I, 0), e(I, 0)])
            return self.leaf(ARR, ctx)
        raise ValueError(t)

    def case(self, t: str, ctx: Ctx, depth: int) -> Case:
        whens = [
            When(self.expr(B, ctx, depth), self.expr(t, ctx, depth))
            for _ in range(self.rng.randint(1, 2))
        ]
        return Case(whens, self.expr(t, ctx, depth) if self.chance(0.7) else None)

    def window(self, t: str, ctx: Ctx, grouped: bool = False) -> Node:
        """A window function: in a grouped query over keys, aggregates and their aliases, else
        over per-row values. Never over a window's alias, nor (per row) an aggregate's: that
        would nest windows or aggregates once inlined."""
        if grouped:
            over = Ctx(
                ctx.scope,
                ctx.outer,
                [l for l in ctx.lats if not l.win],
                agg=True,
                keys=ctx.keys,
                subqueries=False,
                sub_depth=ctx.sub_depth,
            )
        else:
            over = Ctx(
                ctx.scope,
                ctx.outer,
                [l for l in ctx.lats if l.row],
                subqueries=False,
                sub_depth=ctx.sub_depth,
            )
        part = [self.expr(self.pick([I, S]), over, 1) for _ in range(self.rng.randint(0, 1))]
        order = [
            OrderKey(self.expr(self.pick([I, S, D]), over, 1), self.chance(0.4))
            for _ in range(self.rng.randint(0, 2))
        ]
        if t == I:
            fn = self.pick(["rank", "dense_rank", "count", "sum", "min", "max"])
            if fn in ("rank", "dense_rank"):
                return Win(fn, None, part, order or [OrderKey(self.expr(I, over, 1), grouped)])
            return Win(fn, self.expr(I, over, 1), part, order)
        e: Node = Win(self.pick(["sum", "min", "max"]), self.expr(D, over, 1), part, order)
        if grouped and self.chance(0.4):
            # The share of a total: an aggregate's alias over the window's sum of it.
            e = Bin("/", self.expr(D, over, 0), Func("nullif", [e, Lit("0.0", D)]))
        return e

    # -- sources
    def table_source(self) -> tuple[Node, list[ColInfo]]:
        table = self.pick(list(SCHEMAS))
        alias = self.qualifier()
        cols = [
            ColInfo(alias, n, SPARK_TYPE_KIND.get(t, "struct" if t.startswith("struct") else t))
            for n, t in column_types(table)
        ]
        return TableRef(table, alias), cols

    def source(
        self,
        ctx_outer: list[ColInfo],
        ctes: list[tuple[str, list[tuple[str, str]]]],
        sub_depth: int,
    ) -> tuple[Node, list[ColInfo]]:
        if ctes and self.chance(0.5):
            name, cols = self.pick(ctes)
            alias = self.qualifier()
            return TableRef(name, alias), [ColInfo(alias, n, t) for n, t in cols]
        if sub_depth < 1 and self.chance(0.15):
            q, cols = self.sub_query(sub_depth + 1)
            alias = self.qualifier()
            return SubRef(q, alias), [ColInfo(alias, n, t) for n, t in cols]
        return self.table_source()

    def join(self, left: list[ColInfo], ctes, sub_depth: int) -> tuple[Join, list[ColInfo]]:
        right, rcols = self.source([], ctes, sub_depth)
        kind = self.pick(["JOIN", "LEFT JOIN"])
        lnames = {(c.name.lower(), c.typ) for c in left}
        common = sorted(
            {c.name.lower() for c in rcols if (c.name.lower(), c.typ) in lnames and c.typ in (I, S)}
        )
        # USING needs each name once on the left.
        once = [n for n in common if sum(1 for c in left if c.name.lower() == n) == 1]
        if once and self.chance(0.3):
            using = sorted(self.rng.sample(once, self.rng.randint(1, min(2, len(once)))))
            return Join(kind, right, None, using), rcols
        li = [c for c in left if c.typ == I]
        ri = [c for c in rcols if c.typ == I]
        scope = left + rcols
        if li and ri:
            on: Node = Bin(
                "=",
                self.col_node(self.pick(li), scope, True),
                self.col_node(self.pick(ri), scope, True),
            )
            if self.chance(0.25):
                on = Bin("AND", on, self.expr(B, Ctx(scope, [], subqueries=False), 1))
        else:
            on = Lit("true", B)
        return Join(kind, right, on, []), rcols

    # -- select lists
    def alias_name(self, used: set) -> str:
        for _ in range(20):
            a = self.pick(ALIASES)
            if a not in used:
                return a
        self.counter += 1
        return f"c{self.counter}"

    def lateral_ok(self, alias: str, ctx: Ctx) -> bool:
        names = {c.name.lower() for c in ctx.scope + ctx.outer}
        return alias.lower() not in names

    @staticmethod
    def lat_info(alias: str, t: str, e: Node, ctx: Ctx) -> LatInfo:
        """What a later reference may do with an alias of `e` (transitively through the aliases
        `e` reads)."""
        nodes = list(walk(e))
        known = {l.name: l for l in ctx.lats}
        refs = [known[n.name] for n in nodes if isinstance(n, LatRef) and n.name in known]
        has_agg = any(isinstance(n, (Agg, Grouping)) for n in nodes)  # grouping(): per group too
        has_win = any(isinstance(n, Win) for n in nodes)
        has_sub = any(isinstance(n, (ScalarSub, InSub, Exists)) for n in nodes)
        row = not has_agg and not has_win and all(r.row for r in refs)
        clean = row and not has_sub and all(r.clean for r in refs)
        portable = (
            clean
            and ctx.qualifiable
            and all(r.portable for r in refs)
            and all(n.owner for n in nodes if isinstance(n, Col))
        )
        return LatInfo(alias.lower(), t, row, clean, portable, has_win or any(r.win for r in refs))

    def projection_items(
        self, ctx: Ctx, types: list[str] | None, must_alias: bool, stars: bool
    ) -> list[Node]:
        n = len(types) if types else self.rng.randint(1, 5)
        items: list[Node] = []
        used: set = set()
        windows = 0
        for i in range(n):
            if stars and types is None and self.chance(0.15):
                items.append(self.star(ctx))
                continue
            t = types[i] if types else self.pick([I, I, I, S, S, D, B, DT])
            if ctx.windows and t in (I, D) and windows < 2 and self.chance(0.2):
                e = self.window(t, ctx)
                windows += 1
                if self.chance(0.3):
                    e = Bin(
                        self.pick(["+", "-"]),
                        e,
                        self.expr(I, Ctx(ctx.scope, ctx.outer, ctx.lats, subqueries=False), 0),
                    )
            elif (
                types is None
                and not must_alias
                and self.chance(0.15)
                and any(c.typ in (I, S, D) for c in ctx.scope)
            ):
                ci = self.pick([c for c in ctx.scope if c.typ in (I, S, D)])
                e, t = self.col_node(ci, ctx.scope), ci.typ
            else:
                e = self.expr(t, ctx, self.rng.randint(0, 3))
            alias = None
            if must_alias or self.chance(0.75):
                alias = self.alias_name(used)
                used.add(alias)
            items.append(Item(e, alias))
            if alias and self.lateral_ok(alias, ctx):
                ctx.lats.append(self.lat_info(alias, t, e, ctx))
        return items

    def star(self, ctx: Ctx) -> StarItem:
        quals = sorted({c.qual for c in ctx.scope})
        qual = self.pick(quals) if self.chance(0.5) else None
        cols = [c.name for c in ctx.scope if qual is None or c.qual == qual]
        ex: list[str] = []
        names = [
            n for n in cols if cols.count(n) == 1 and sum(1 for c in ctx.scope if c.name == n) == 1
        ]
        if names and self.chance(0.4):
            ex = sorted(set(self.rng.sample(names, self.rng.randint(1, min(2, len(names))))))
        return StarItem(qual, ex)

    # -- cores
    def core(
        self,
        types: list[str] | None,
        must_alias: bool,
        outer: list[ColInfo],
        ctes,
        sub_depth: int,
        stars: bool = False,
        allow_agg: bool = True,
    ) -> Core:
        src, scope = self.source(outer, ctes, sub_depth)
        joins = []
        if self.chance(0.35):
            j, rcols = self.join(scope, ctes, sub_depth)
            joins.append(j)
            scope = scope + rcols
        ctx = Ctx(scope, outer, sub_depth=sub_depth, qualifiable=not any(j.using for j in joins))
        want_where = self.chance(0.4)
        if allow_agg and self.chance(0.35):
            c = self.aggregate_core(types, must_alias, ctx, src, joins)
        else:
            ctx.windows = sub_depth == 0 and self.chance(0.5)
            ctx.lat_subqueries = True
            stars = stars and not joins or stars and self.chance(0.5)
            items = self.projection_items(ctx, types, must_alias, stars)
            c = Core(items, src, joins, None, None, None, distinct=self.chance(0.08))
        if want_where:
            # Generated after the SELECT list, so WHERE may read its per-row aliases.
            lats = [l for l in ctx.lats if l.clean] if self.chance(0.5) else []
            c.where = self.expr(B, Ctx(scope, outer, lats, sub_depth=sub_depth), 2)
            for ref in _alias_reads(c.where):
                ref.scope = "WHERE"
        return c

    def aggregate_core(self, types, must_alias, ctx: Ctx, src, joins) -> Core:
        scalar_types = [c for c in ctx.scope if c.typ in (I, S, DT)]
        items: list[Node] = []
        group: list[Node] = []
        used: set = set()
        n = len(types) if types else self.rng.randint(1, 5)
        style = "columns"
        if scalar_types and self.chance(0.3) and (types is None or types[0] in (I, S)):
            # GROUP BY row-level items, which may use earlier aliases: by alias, by ordinal, ALL,
            # or ROLLUP, CUBE, GROUPING SETS over aliases or ordinals.
            style = self.pick(["alias", "alias", "ordinal", "all", "sets", "sets"])
            k = self.rng.randint(1, 2) if types is None else 1
            for i in range(min(k, n)):
                t = types[i] if types else self.pick([I, S])
                e = self.expr(t, Ctx(ctx.scope, ctx.outer, list(ctx.lats), subqueries=False), 1)
                alias = self.alias_name(used | {c.name.lower() for c in ctx.scope + ctx.outer})
                used.add(alias)
                items.append(Item(e, alias))
                group.append(GroupOrdinal(i + 1) if style == "ordinal" else GroupAlias(alias))
                ctx.lats.append(self.lat_info(alias, t, e, ctx))
            if style == "all":
                group = [GroupAll()]
            elif style == "sets":
                elements = [
                    GroupOrdinal(i + 1) if self.chance(0.3) else g for i, g in enumerate(group)
                ]
                kind = self.pick(["ROLLUP", "CUBE", "GROUPING SETS"])
                if kind == "GROUPING SETS":
                    subsets = [elements[:j] for j in range(len(elements) + 1)] + [elements[-1:]]
                    sets = [s for s in subsets if self.chance(0.6)] or [elements]
                else:
                    sets = [elements]
                group = [GroupingSets(kind, sets)]
        elif scalar_types and self.chance(0.8):
            keys = self.rng.sample(scalar_types, self.rng.randint(1, min(2, len(scalar_types))))
            ctx.keys = keys
            group = [self.col_node(k, ctx.scope) for k in keys]
        grouped = [it.alias for it in items]
        ctx.agg = True
        windows = 0
        with_windows = ctx.sub_depth == 0 and style != "all" and self.chance(0.4)
        for i in range(len(items), n):
            t = types[i] if types else self.pick([I, I, S, D, B])
            if with_windows and t in (I, D) and windows < 2 and self.chance(0.3):
                # A window over aggregates and their aliases ("rank by total", "share of total").
                e = self.window(t, ctx, grouped=True)
                windows += 1
            elif style == "sets" and t == I and types is None and self.chance(0.25):
                names = self.rng.sample(grouped, self.rng.randint(1, len(grouped)))
                fn = "grouping" if len(names) == 1 and self.chance(0.6) else "grouping_id"
                e = Grouping(fn, [LatRef(a.lower(), self.spell(a), I) for a in names])
            else:
                e = self.expr(t, ctx, self.rng.randint(0, 2))
            alias = None
            if must_alias or self.chance(0.75):
                alias = self.alias_name(used)
                used.add(alias)
            items.append(Item(e, alias))
            if alias and self.lateral_ok(alias, ctx):
                ctx.lats.append(self.lat_info(alias, t, e, ctx))
        # A subquery item reading earlier aliases (an aggregate's too), under extraScopes=SUBQUERY:
        # only in a list whose items all have aliases, which its derived-table form lists by name.
        sub_item = None
        # Not under grouping sets: Spark 3.5 to 4.1 give their items new ids there, so colsem
        # leaves such a subquery unresolved on those lines (docs/versions.md).
        if (
            types is None
            and ctx.sub_depth == 0
            and style not in ("all", "sets")
            and all(isinstance(it, Item) and it.alias for it in items)
            and self.chance(0.25)
        ):
            sub = self.aggregate_list_subquery([l for l in ctx.lats if l.typ == I and not l.win])
            if sub is not None:
                alias = self.alias_name(used)
                used.add(alias)
                sub_item = Item(ScalarSub(sub), alias)
                items.append(sub_item)
        having = None
        # Not when an item reads a window's alias: colsem leaves that to native Spark, which
        # refuses it (docs/lateral-aliases.md: a window alias is never copied below a HAVING);
        # nor over a subquery item that reads an alias, which colsem does not read under HAVING.
        window_aliases = {l.name for l in ctx.lats if l.win}
        reads_window = any(isinstance(x, LatRef) and x.name in window_aliases for x in walk(items))
        if self.chance(0.3) and not reads_window and sub_item is None:
            hctx = Ctx(ctx.scope, ctx.outer, [], agg=True, keys=ctx.keys, subqueries=False)
            having = Bin(self.pick([">", ">=", "<>"]), self.aggregate(I, hctx), self.literal(I))
        return Core(items, src, joins, None, group or None, having)

    # -- queries
    def sub_query(self, sub_depth: int) -> tuple[Query, list[tuple[str, str]]]:
        """A FROM subquery or CTE body: aliased, uniquely named items (or one star over one table)."""
        types = [self.pick([I, I, S, D, DT]) for _ in range(self.rng.randint(1, 4))]
        if self.chance(0.15):
            src, scope = self.table_source()
            star = StarItem(None, [])
            if self.chance(0.4):
                star = StarItem(None, [self.pick([c.name for c in scope])])
            cols = [(c.name, c.typ) for c in scope if c.name not in star.except_]
            return Query([], Core([star], src, [], None, None, None)), cols
        c = self.core(types, True, [], [], sub_depth)
        cols = [(it.alias, t) for it, t in zip(c.items, types)]
        return Query([], c), cols

    def scalar_query(self, t: str, ctx: Ctx) -> Query:
        src, scope = self.table_source()
        inner = Ctx(scope, [], subqueries=False, sub_depth=ctx.sub_depth + 1)
        fn = self.pick(["max", "min", "count"]) if t != D else self.pick(["max", "sum"])
        if fn == "count":
            agg = Agg("count", None) if t == I else None
        else:
            agg = Agg(fn, self.expr(t, inner, 1))
        if agg is None:
            agg = Agg("max", self.expr(t, inner, 1))
        where = self.correlation(scope, ctx)
        return Query([], Core([Item(agg, None)], src, [], where, None, None))

    def aggregate_list_subquery(self, lats: list[LatInfo]) -> Query | None:
        """`(SELECT agg FROM table WHERE column <op> alias)`: a scalar subquery of an aggregate list
        reading one of its earlier integer aliases (a key's, a per-group value's or an
        aggregate's), none a column of the subquery's table has the name of."""
        src, scope = self.table_source()
        inner_i = [c for c in scope if c.typ == I]
        names = {c.name.lower() for c in scope}
        readable = [l for l in lats if l.name not in names]
        if not readable or not inner_i:
            return None
        lat = self.pick(readable)
        where = Bin(
            self.pick(["=", "<", ">=", "<>"]),
            self.col_node(self.pick(inner_i), scope, True),
            LatRef(lat.name, self.spell(lat.name), I, "SUBQUERY"),
        )
        inner = Ctx(scope, [], subqueries=False, sub_depth=1)
        fn = self.pick(["count", "max", "min"])
        agg = Agg("count", None) if fn == "count" else Agg(fn, self.expr(I, inner, 1))
        return Query([], Core([Item(agg, None)], src, [], where, None, None))

    def correlation(self, scope: list[ColInfo], ctx: Ctx) -> Node | None:
        outer_i = [c for c in ctx.scope if c.typ == I]
        inner_i = [c for c in scope if c.typ == I]
        inner_names = {c.name.lower() for c in scope}
        lats = [l for l in ctx.lats if l.portable and l.typ == I and l.name not in inner_names]
        if ctx.lat_subqueries and lats and inner_i and self.chance(0.5):
            # An earlier alias of the SELECT list, read as an outer reference.
            l = self.pick(lats)
            return Bin(
                self.pick(["=", "=", "<", ">="]),
                self.col_node(self.pick(inner_i), scope, True),
                LatRef(l.name, self.spell(l.name), I, "SUBQUERY"),
            )
        if outer_i and inner_i and self.chance(0.6):
            return Bin(
                "=",
                self.col_node(self.pick(inner_i), scope, True),
                self.col_node(self.pick(outer_i), ctx.scope, True),
            )
        return None

    def in_query(self, t: str, ctx: Ctx) -> Query:
        src, scope = self.table_source()
        inner = Ctx(scope, [], subqueries=False, sub_depth=ctx.sub_depth + 1)
        where = (
            self.correlation(scope, ctx)
            if self.chance(0.3 if not ctx.lat_subqueries else 0.8)
            else None
        )
        return Query([], Core([Item(self.expr(t, inner, 1), None)], src, [], where, None, None))

    def exists_query(self, ctx: Ctx) -> Query:
        src, scope = self.table_source()
        where = self.correlation(scope, ctx)
        inner = Ctx(scope, [], subqueries=False, sub_depth=ctx.sub_depth + 1)
        if where is not None and self.chance(0.5):
            where = Bin("AND", where, self.expr(B, inner, 1))
        return Query([], Core([Item(Lit("1", I), None)], src, [], where, None, None))

    def query(self) -> Query:
        self.counter = 0
        ctes: list[Cte] = []
        cte_cols: list[tuple[str, list[tuple[str, str]]]] = []
        if self.chance(0.15):
            for i in range(self.rng.randint(1, 2)):
                q, cols = self.sub_query(1)
                name = f"cte{i}"
                ctes.append(Cte(name, q))
                cte_cols.append((name, cols))
        if self.chance(0.12):
            types = [self.pick([I, S, D]) for _ in range(self.rng.randint(1, 3))]
            left = self.core(types, True, [], cte_cols, 0)
            right = self.core(types, self.chance(0.5), [], cte_cols, 0)
            body: Node = SetOp(
                self.pick(["UNION ALL", "UNION", "INTERSECT", "EXCEPT"]), left, right
            )
            arity = len(types)
        else:
            body = self.core(None, False, [], cte_cols, 0, stars=True)
            arity = 0 if any(isinstance(i, StarItem) for i in body.items) else len(body.items)
        order: list[tuple[int, bool]] = []
        if arity and self.chance(0.35):
            positions = list(range(1, arity + 1))
            if self.chance(0.5):
                self.rng.shuffle(positions)
                positions = positions[: self.rng.randint(1, arity)]
            order = [(p, self.chance(0.3)) for p in positions]
        return Query(ctes, body, order)
