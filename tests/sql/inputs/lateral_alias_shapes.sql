-- Lateral aliases wherever a select-list name can be meant. Annotations (tests/lateral_shapes.py):
-- `shape:` names a row of docs/lateral-aliases.md's shapes table, `inlined:` is the statement with
-- its aliases replaced by hand (colsem must answer exactly as vanilla Spark answers that), `duckdb`
-- marks statements DuckDB also runs (tests/test_lateral_alias_shapes.py).
CREATE TEMPORARY VIEW lt AS SELECT * FROM (VALUES (1, 10), (2, 20), (1, 30)) AS lt(k, v);
CREATE TEMPORARY VIEW lt2 AS SELECT * FROM (VALUES (1, 5), (3, 7)) AS lt2(k, v);
CREATE TEMPORARY VIEW sales AS SELECT * FROM (VALUES ('n', 1), ('n', 2), ('s', 5)) AS sales(region, amount);
CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (1, 2, 30), (2, 5, 40), (3, 1, 50)) AS orders(id, price, qty);

-- shape: chain in the SELECT list
-- inlined: SELECT k + 1 AS a, k + 1 + 1 AS b, (k + 1 + 1) * 2 AS c FROM lt ORDER BY a, c
-- duckdb
SELECT k + 1 AS a, a + 1 AS b, b * 2 AS c FROM lt ORDER BY a, c;

-- shape: alias inside an aggregate's argument
-- inlined: SELECT k * 2 AS x, sum(k * 2) AS s FROM lt GROUP BY k ORDER BY x
-- duckdb
SELECT k * 2 AS x, sum(x) AS s FROM lt GROUP BY k ORDER BY x;

-- shape: GROUP BY aliases that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, count(*) AS c FROM lt GROUP BY k, k + 1 ORDER BY a
-- duckdb
SELECT k AS a, a + 1 AS b, count(*) AS c FROM lt GROUP BY a, b ORDER BY a;

-- shape: window over a per-row alias
-- inlined: SELECT v * 2 AS d, sum(v * 2) OVER (ORDER BY v * 2) AS running FROM lt ORDER BY d
-- duckdb
SELECT v * 2 AS d, sum(d) OVER (ORDER BY d) AS running FROM lt ORDER BY d;

-- (grouping and window shapes)

-- (WHERE and subquery shapes)
