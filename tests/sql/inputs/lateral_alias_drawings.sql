-- The plans the scaladoc drawings in jvm/src/main/scala/io/colsem/lca/ show, each named by the
-- drawing's `Golden:` line (tests/test_drawings.py checks the drawing against its plan here).
-- A plain SELECT list (ResolveLateralAliases): the used alias computed one level below.
SELECT s1 + 1 AS x, x * 2 AS y FROM t1;
-- Only aliases a later item uses get a level (AliasMaterialization): y is computed in the list.
SELECT s1 + 1 AS x, x * 2 AS y, x + s3 FROM t1;
-- A per-row alias inside an aggregate function (AggregateListRewrite): computed below the
-- Aggregate under a private name, read by attribute under the name as written, so the item keeps
-- the name `sum(x)`.
SELECT s1 * 2 AS x, sum(x) FROM t1 GROUP BY s1;
-- A chain in a list longer than native Spark's depth, 49 (ChainFolding): plain aliases folded in
-- runs of 8, so every ninth alias (x9, x18, ...) is computed, one Project each.
SELECT s1 AS x1, x1 + 1 AS x2, x2 + 1 AS x3, x3 + 1 AS x4, x4 + 1 AS x5, x5 + 1 AS x6, x6 + 1 AS x7, x7 + 1 AS x8, x8 + 1 AS x9, x9 + 1 AS x10, x10 + 1 AS x11, x11 + 1 AS x12, x12 + 1 AS x13, x13 + 1 AS x14, x14 + 1 AS x15, x15 + 1 AS x16, x16 + 1 AS x17, x17 + 1 AS x18, x18 + 1 AS x19, x19 + 1 AS x20, x20 + 1 AS x21, x21 + 1 AS x22, x22 + 1 AS x23, x23 + 1 AS x24, x24 + 1 AS x25, x25 + 1 AS x26, x26 + 1 AS x27, x27 + 1 AS x28, x28 + 1 AS x29, x29 + 1 AS x30, x30 + 1 AS x31, x31 + 1 AS x32, x32 + 1 AS x33, x33 + 1 AS x34, x34 + 1 AS x35, x35 + 1 AS x36, x36 + 1 AS x37, x37 + 1 AS x38, x38 + 1 AS x39, x39 + 1 AS x40, x40 + 1 AS x41, x41 + 1 AS x42, x42 + 1 AS x43, x43 + 1 AS x44, x44 + 1 AS x45, x45 + 1 AS x46, x46 + 1 AS x47, x47 + 1 AS x48, x48 + 1 AS x49, x49 + 1 AS x50 FROM t1;
