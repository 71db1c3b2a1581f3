"""The generator's expressions: literals, columns, earlier aliases, operators, functions,
aggregates, windows and CASE, typed, over the scope a SELECT list sees (`Ctx`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .tree import (
    ARR,
    DT,
    Agg,
    B,
    Bin,
    Case,
    Cast,
    Col,
    D,
    Exists,
    Field,
    Func,
    I,
    InList,
    InSub,
    IsNull,
    LatRef,
    Lit,
    Node,
    OrderKey,
    Query,
    S,
    ScalarSub,
    Un,
    When,
    Win,
)

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


class Expressions:
    """Random expressions over a scope of columns and earlier aliases. Every choice comes from one
    seeded random.Random; the subqueries an expression holds are the query generator's
    (generator.Generator)."""

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

    # -- subqueries, made by the query generator (generator.Generator)
    def scalar_query(self, t: str, ctx: Ctx) -> Query:
        raise NotImplementedError

    def in_query(self, t: str, ctx: Ctx) -> Query:
        raise NotImplementedError

    def exists_query(self, ctx: Ctx) -> Query:
        raise NotImplementedError

    def correlation(self, scope: list[ColInfo], ctx: Ctx) -> Node | None:
        raise NotImplementedError
