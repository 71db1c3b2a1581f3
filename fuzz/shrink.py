"""Delta debugging over the query AST: smaller variants of a failing query (an item, join,
clause or CTE removed; an expression replaced by a child or a literal of its type; an alias
inlined into the items that use it), kept greedily while the same oracle still fails the same way."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from dataclasses import fields, replace

from .render import render
from .tree import (
    ARR,
    DT,
    Agg,
    B,
    Bin,
    Case,
    Cast,
    Col,
    Core,
    D,
    Exists,
    Field,
    Func,
    I,
    InList,
    InSub,
    IsNull,
    Item,
    LatRef,
    Lit,
    Node,
    Query,
    S,
    ScalarSub,
    SetOp,
    StarItem,
    Un,
    When,
    Win,
)

LITERALS = {I: "1", D: "0.5", S: "'a'", B: "true", DT: "DATE '2024-01-01'", ARR: "array(1, 2)"}
FUNC_TYPES = {
    "coalesce": None,
    "abs": I,
    "length": I,
    "size": I,
    "year": I,
    "try_element_at": I,
    "greatest": I,
    "least": I,
    "round": D,
    "upper": S,
    "lower": S,
    "substr": S,
    "date_add": DT,
    "array": ARR,
}


def typ_of(n: Node) -> str | None:
    """The generator's type of an expression (None when unknown)."""
    if isinstance(n, (Col, Lit, LatRef)):
        return n.typ if n.typ in LITERALS else None
    if isinstance(n, Bin):
        if n.op in ("=", "<>", "<", "<=", ">", ">=", "AND", "OR"):
            return B
        if n.op == "||":
            return S
        if n.op == "/":
            return D
        lt, rt = typ_of(n.l), typ_of(n.r)
        return D if D in (lt, rt) else lt
    if isinstance(n, Un):
        return B if n.op == "NOT" else typ_of(n.e)
    if isinstance(n, (IsNull, InList, InSub, Exists)):
        return B
    if isinstance(n, Case):
        return typ_of(n.whens[0].val) if n.whens else None
    if isinstance(n, Func):
        t = FUNC_TYPES.get(n.name)
        return t if t is not None or not n.args else typ_of(n.args[0])
    if isinstance(n, Cast):
        return D if n.to == "DOUBLE" else S
    if isinstance(n, Field):
        return I
    if isinstance(n, Agg):
        if n.fn == "count":
            return I
        if n.fn == "avg":
            return D
        return typ_of(n.arg) if n.arg is not None else None
    if isinstance(n, Win):
        if n.fn in ("rank", "dense_rank", "count"):
            return I
        return typ_of(n.arg) if n.arg is not None else None
    if isinstance(n, ScalarSub):
        body = n.q.body
        if isinstance(body, Core) and body.items and isinstance(body.items[0], Item):
            return typ_of(body.items[0].e)
    return None


def substitute(n: object, name: str, expr: Node) -> object:
    """A copy of `n` with every lateral reference to `name` replaced by `expr`, not entering
    subqueries: there the expression's columns could be captured by the subquery's FROM (such
    a variant keeps the reference and simply fails to resolve)."""
    if isinstance(n, LatRef):
        return copy.deepcopy(expr) if n.name == name else n
    if isinstance(n, Query):
        return n
    if isinstance(n, Node):
        return replace(n, **{f.name: substitute(getattr(n, f.name), name, expr) for f in fields(n)})
    if isinstance(n, list):
        return [substitute(x, name, expr) for x in n]
    return n


def local_reductions(n: Node) -> Iterator[Node]:
    if isinstance(n, Query):
        if n.order:
            yield replace(n, order=[])
        if isinstance(n.body, SetOp):
            yield replace(n, body=n.body.left)
            yield replace(n, body=n.body.right)
        for i in range(len(n.ctes)):
            yield replace(n, ctes=n.ctes[:i] + n.ctes[i + 1 :])
        return
    if isinstance(n, Core):
        for i, it in enumerate(n.items):
            if len(n.items) > 1:
                rest = n.items[:i] + n.items[i + 1 :]
                if isinstance(it, Item) and it.alias:
                    later = [
                        substitute(x, it.alias.lower(), it.e) if j >= i else x
                        for j, x in enumerate(rest)
                    ]
                    yield replace(n, items=later)
                yield replace(n, items=rest)
        for i in range(len(n.joins)):
            yield replace(n, joins=n.joins[:i] + n.joins[i + 1 :])
        if n.where is not None:
            yield replace(n, where=None)
        if n.having is not None:
            yield replace(n, having=None)
        if n.group:
            yield replace(n, group=None)
        if n.distinct:
            yield replace(n, distinct=False)
        for i, it in enumerate(n.items):
            if isinstance(it, Item) and it.alias:
                later = [
                    substitute(x, it.alias.lower(), it.e) if j > i else x
                    for j, x in enumerate(n.items)
                ]
                if later != n.items:
                    yield replace(n, items=later)
        return
    if isinstance(n, Item):
        if n.alias:
            yield replace(n, alias=None)
        return
    if isinstance(n, (StarItem, When)):
        return
    # An expression: a child of the same type, then a literal of that type.
    t = typ_of(n)
    if t is None:
        return
    for child in _children(n):
        if typ_of(child) == t:
            yield child
    if not isinstance(n, Lit) or n.text != LITERALS[t]:
        yield Lit(LITERALS[t], t)


def _children(n: Node) -> Iterator[Node]:
    for f in fields(n):
        v = getattr(n, f.name)
        if isinstance(v, Node) and not isinstance(v, Query):
            if isinstance(v, When):
                yield v.cond
                yield v.val
            else:
                yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, When):
                    yield x.cond
                    yield x.val
                elif isinstance(x, Node) and not isinstance(x, Query):
                    yield x


def variants(n: Node) -> Iterator[Node]:
    """Every tree one reduction smaller than `n`, biggest reductions (nearest the root) first."""
    yield from local_reductions(n)
    for f in fields(n):
        v = getattr(n, f.name)
        if isinstance(v, Node):
            for nv in variants(v):
                yield replace(n, **{f.name: nv})
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, Node):
                    for nx in variants(x):
                        yield replace(n, **{f.name: v[:i] + [nx] + v[i + 1 :]})
        elif isinstance(v, tuple):
            continue


def shrink(
    q: Query,
    still_fails: Callable[[Query], bool],
    max_checks: int = 300,
    max_seconds: float = 180.0,
) -> Query:
    """Greedy delta debugging: take the first smaller variant that still fails, start over."""
    start, checks = time.monotonic(), 0
    best, best_len = q, len(render(q))
    improved = True
    while improved and checks < max_checks and time.monotonic() - start < max_seconds:
        improved = False
        seen = set()
        for cand in variants(best):
            text = render(cand)
            if len(text) >= best_len or text in seen:
                continue
            seen.add(text)
            checks += 1
            if still_fails(cand):
                best, best_len, improved = cand, len(text), True
                break
            if checks >= max_checks or time.monotonic() - start >= max_seconds:
                break
    return best


def alias_all(q: Query) -> Query:
    """Every unaliased item of the top SELECT list(s) gets an alias, so a lateral query and its
    inlined form have the same column names."""

    def fix(c: Core) -> Core:
        items, used = [], {it.alias.lower() for it in c.items if isinstance(it, Item) and it.alias}
        for i, it in enumerate(c.items):
            if isinstance(it, Item) and not it.alias:
                name = f"col{i + 1}"
                while name in used:
                    name += "_"
                used.add(name)
                it = replace(it, alias=name)
            items.append(it)
        return replace(c, items=items)

    body = q.body
    if isinstance(body, SetOp):
        return replace(q, body=replace(body, left=fix(body.left), right=fix(body.right)))
    return replace(q, body=fix(body))


__all__ = ["alias_all", "shrink", "variants", "typ_of"]
