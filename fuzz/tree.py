"""The fuzzer's query tree: plain dataclasses, so the shrinker can rebuild any node with one
child changed. A lateral alias reference (`LatRef`) holds the alias name only; the renderer
(render.py) finds the expression of the earlier item of that name in the same SELECT list, so
shrinking stays valid."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

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


# ---------------------------------------------------------------- walking the tree
def walk(n: object) -> Iterator[Node]:
    """Every node, depth first (lists and nested queries included)."""
    if isinstance(n, Node):
        yield n
        for v in vars(n).values():
            yield from walk(v)
    elif isinstance(n, (list, tuple)):
        for v in n:
            yield from walk(v)


def aggregates(n: object) -> bool:
    """An aggregate call in `n` outside its subqueries (which make their own aggregate lists)."""
    if isinstance(n, Agg):
        return True
    if isinstance(n, Query):
        return False
    if isinstance(n, Node):
        return any(aggregates(v) for v in vars(n).values())
    if isinstance(n, (list, tuple)):
        return any(aggregates(v) for v in n)
    return False


def alias_reads(n: object) -> list[LatRef]:
    """The lateral alias references in `n`, not counting nested queries."""
    if isinstance(n, LatRef):
        return [n]
    if isinstance(n, Query):
        return []
    if isinstance(n, Node):
        return [r for v in vars(n).values() for r in alias_reads(v)]
    if isinstance(n, (list, tuple)):
        return [r for v in n for r in alias_reads(v)]
    return []
