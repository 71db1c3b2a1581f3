"""The random query generator: `Generator(seed).query()` is the query a seed's index names
(`make fuzz` numbers them `seed * 1000003 + index`)."""

from __future__ import annotations

from .data import SCHEMAS, column_types
from .expressions import ALIASES, ColInfo, Ctx, Expressions, LatInfo
from .tree import (
    DT,
    SPARK_TYPE_KIND,
    Agg,
    B,
    Bin,
    Col,
    Core,
    Cte,
    D,
    Exists,
    GroupAlias,
    GroupAll,
    Grouping,
    GroupingSets,
    GroupOrdinal,
    I,
    InSub,
    Item,
    Join,
    LatRef,
    Lit,
    Node,
    Query,
    S,
    ScalarSub,
    SetOp,
    StarItem,
    SubRef,
    TableRef,
    Win,
    alias_reads,
    walk,
)


class Generator(Expressions):
    """Random queries over fa, fb, fc: sources and joins, SELECT lists (lateral aliases, stars),
    aggregate lists, subqueries, CTEs and set operations. Every choice comes from one seeded
    random.Random (Expressions')."""

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

    def append_item(
        self, items: list[Item], e: Node, t: str, ctx: Ctx, used: set, must_alias: bool
    ) -> None:
        """A select item of `e`, aliased when it must be or three times in four; an alias later
        items may read becomes one of ctx's lateral aliases."""
        alias = None
        if must_alias or self.chance(0.75):
            alias = self.alias_name(used)
            used.add(alias)
        items.append(Item(e, alias))
        if alias and self.lateral_ok(alias, ctx):
            ctx.lats.append(self.lat_info(alias, t, e, ctx))

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
            self.append_item(items, e, t, ctx, used, must_alias)
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
            for ref in alias_reads(c.where):
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
            self.append_item(items, e, t, ctx, used, must_alias)
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
