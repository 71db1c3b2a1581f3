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
-- An aggregate inside a window's specification makes the list a global aggregate (fuzzer, seed 3).
-- inlined: SELECT '' AS e, rank() OVER (PARTITION BY '' ORDER BY max('')) AS r FROM lt
SELECT '' AS e, rank() OVER (PARTITION BY e ORDER BY max(e)) AS r FROM lt;
-- An aggregate window function alone does not (fuzzer, seed 3).
-- inlined: SELECT 1 AS e, min(v) OVER (ORDER BY k - 1) AS m FROM lt
SELECT 1 AS e, min(v) OVER (ORDER BY k - e) AS m FROM lt;

-- (grouping and window shapes)
-- shape: GROUP BY ALL over items that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, sum(v) AS s FROM lt GROUP BY ALL ORDER BY a
-- duckdb
SELECT k AS a, a + 1 AS b, sum(v) AS s FROM lt GROUP BY ALL ORDER BY a;
-- inlined: SELECT k AS a, k + 1 AS b FROM lt GROUP BY ALL ORDER BY a
-- duckdb
SELECT k AS a, a + 1 AS b FROM lt GROUP BY ALL ORDER BY a;
-- inlined: SELECT sum(v) AS s, sum(v) + 1 AS t FROM lt GROUP BY ALL
-- duckdb
SELECT sum(v) AS s, s + 1 AS t FROM lt GROUP BY ALL;
-- inlined: SELECT k AS a, sum(v) AS s, sum(v) * 2 AS d, k * 10 AS e FROM lt GROUP BY ALL ORDER BY a
-- duckdb
SELECT k AS a, sum(v) AS s, s * 2 AS d, a * 10 AS e FROM lt GROUP BY ALL ORDER BY a;
-- inlined: SELECT 1 AS one, 1 + 1 AS two, count(*) AS c FROM lt GROUP BY ALL
-- duckdb
SELECT 1 AS one, one + 1 AS two, count(*) AS c FROM lt GROUP BY ALL;
-- Nothing to group by and a column outside aggregates: native Spark's refusal.
SELECT sum(v) AS s, k + s AS t FROM lt GROUP BY ALL;

-- shape: GROUP BY ordinals over items that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, count(*) AS c FROM lt GROUP BY 1, 2 ORDER BY a
-- duckdb
SELECT k AS a, a + 1 AS b, count(*) AS c FROM lt GROUP BY 1, 2 ORDER BY a;
-- inlined: SELECT sum(v) AS s, k AS a, k * 2 AS b FROM lt GROUP BY 2, 3 ORDER BY b
SELECT sum(v) AS s, k AS a, a * 2 AS b FROM lt GROUP BY 2, 3 ORDER BY b;
-- Grouped by `k * 2` only, `k` is not grouped: Spark's MISSING_AGGREGATION, as the inlined query.
SELECT k AS a, a * 2 AS b, sum(v) AS s FROM lt GROUP BY 2 ORDER BY b;
-- An ordinal naming an aggregate item, or out of range: Spark's errors.
SELECT k AS a, a + 1 AS b, sum(v) AS s FROM lt GROUP BY 1, 3;
SELECT k AS a, a + 1 AS b FROM lt GROUP BY 1, 4;

-- shape: ROLLUP over aliases or ordinals of items that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, sum(v) AS s, grouping(k + 1) AS gb, grouping_id(k, k + 1) AS gid FROM lt GROUP BY ROLLUP(k, k + 1)
-- duckdb
SELECT k AS a, a + 1 AS b, sum(v) AS s, grouping(b) AS gb, grouping_id(a, b) AS gid FROM lt GROUP BY ROLLUP(1, 2);
-- inlined: SELECT k AS a, k + 1 AS b, sum(v) AS s, sum(v) + 1 AS t FROM lt GROUP BY ROLLUP(k, k + 1)
SELECT k AS a, a + 1 AS b, sum(v) AS s, s + 1 AS t FROM lt GROUP BY ROLLUP(a, b);
-- An item reading a grouped alias, itself not grouped (Spark 3.5's native support fails here).
-- inlined: SELECT least(k, v) AS m, least(k, v) AS w, count(*) AS c FROM lt GROUP BY ROLLUP(least(k, v))
SELECT least(k, v) AS m, m AS w, count(*) AS c FROM lt GROUP BY ROLLUP(m);

-- shape: CUBE over aliases of items that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, sum(v) AS s, grouping(k) AS ga FROM lt GROUP BY CUBE(k, k + 1)
-- duckdb
SELECT k AS a, a + 1 AS b, sum(v) AS s, grouping(a) AS ga FROM lt GROUP BY CUBE(a, b);
-- inlined: SELECT k AS a, k + 1 AS b, count(*) AS c FROM lt GROUP BY CUBE(k)
SELECT k AS a, a + 1 AS b, count(*) AS c FROM lt GROUP BY CUBE(a);

-- shape: GROUPING SETS over aliases of items that use aliases
-- inlined: SELECT k AS a, k + 1 AS b, count(*) AS c FROM lt GROUP BY GROUPING SETS ((k), (k, k + 1), ())
-- duckdb
SELECT k AS a, a + 1 AS b, count(*) AS c FROM lt GROUP BY GROUPING SETS ((a), (a, b), ());

-- shape: grouping() over an alias
-- inlined: SELECT k AS a, k + 1 AS b, grouping(k + 1) AS gb FROM lt GROUP BY ROLLUP(k, k + 1)
-- duckdb
SELECT k AS a, k + 1 AS b, grouping(b) AS gb FROM lt GROUP BY ROLLUP(a, b);
-- An aggregate over a grouping call's alias: the call's expression, computed by the Aggregate.
-- inlined: SELECT k AS a, grouping_id(k) AS g, min(grouping_id(k)) AS mg FROM lt GROUP BY ROLLUP(k)
SELECT k AS a, grouping_id(a) AS g, min(g) AS mg FROM lt GROUP BY ROLLUP(a);
-- inlined: SELECT k AS a, grouping(k) AS g, grouping(k) + 1 AS g1, max((grouping(k) + 1) * v) AS mx FROM lt GROUP BY GROUPING SETS ((k), ())
SELECT k AS a, grouping(a) AS g, g + 1 AS g1, max(g1 * v) AS mx FROM lt GROUP BY GROUPING SETS ((a), ());

-- shape: window over an aggregate's alias
-- inlined: SELECT region, sum(amount) AS total, rank() OVER (ORDER BY sum(amount) DESC) AS r, sum(amount) / sum(sum(amount)) OVER () AS share FROM sales GROUP BY region ORDER BY region
-- duckdb
SELECT region, sum(amount) AS total, rank() OVER (ORDER BY total DESC) AS r, total / sum(total) OVER () AS share FROM sales GROUP BY region ORDER BY region;
-- inlined: SELECT region, sum(amount) AS total, rank() OVER (ORDER BY sum(amount) DESC) AS r FROM sales GROUP BY region HAVING sum(amount) > 2 ORDER BY region
-- duckdb
SELECT region, sum(amount) AS total, rank() OVER (ORDER BY total DESC) AS r FROM sales GROUP BY region HAVING total > 2 ORDER BY region;
-- Over a FROM subquery whose aliases are resolved in the same pass as this list, the Aggregate
-- below the HAVING is a new node: found as the HAVING's input by its shape, its per-group `total`
-- is inlined as under any HAVING with a window (by identity it was missed: Spark's refusal).
-- inlined: SELECT region, sum(amount) AS total, sum(amount) * 2 AS t2, rank() OVER (ORDER BY sum(amount) DESC) AS r FROM (SELECT upper(region) AS u, upper(region) AS region, amount FROM sales) GROUP BY region HAVING sum(amount) > 2 ORDER BY region
SELECT region, sum(amount) AS total, total * 2 AS t2, rank() OVER (ORDER BY total DESC) AS r FROM (SELECT upper(region) AS u, u AS region, amount FROM sales) GROUP BY region HAVING total > 2 ORDER BY region;
-- inlined: SELECT sum(amount) AS total, count(*) AS n, rank() OVER (ORDER BY sum(amount)) AS r, sum(amount) / sum(sum(amount)) OVER () AS share FROM sales
-- duckdb
SELECT sum(amount) AS total, count(*) AS n, rank() OVER (ORDER BY total) AS r, total / sum(total) OVER () AS share FROM sales;
-- inlined: SELECT upper(region) AS g, sum(amount) AS total, rank() OVER (PARTITION BY upper(region) ORDER BY sum(amount)) AS r FROM sales GROUP BY region ORDER BY g
-- duckdb
SELECT upper(region) AS g, sum(amount) AS total, rank() OVER (PARTITION BY g ORDER BY total) AS r FROM sales GROUP BY region ORDER BY g;
-- inlined: SELECT region AS g, sum(amount) AS total, rank() OVER (PARTITION BY region ORDER BY sum(amount)) AS r FROM sales GROUP BY region ORDER BY g
-- duckdb
SELECT region AS g, sum(amount) AS total, rank() OVER (PARTITION BY g ORDER BY total) AS r FROM sales GROUP BY g ORDER BY g;
-- inlined: SELECT region, sum(amount) AS total, rank() OVER (ORDER BY sum(amount)) AS r FROM sales GROUP BY ALL ORDER BY region
-- duckdb
SELECT region, sum(amount) AS total, rank() OVER (ORDER BY total) AS r FROM sales GROUP BY ALL ORDER BY region;
-- A window's alias used by a later item.
-- inlined: SELECT region, sum(amount) AS total, rank() OVER (ORDER BY sum(amount) DESC) AS r, rank() OVER (ORDER BY sum(amount) DESC) * 10 AS r10 FROM sales GROUP BY region ORDER BY region
-- duckdb
SELECT region, sum(amount) AS total, rank() OVER (ORDER BY total DESC) AS r, r * 10 AS r10 FROM sales GROUP BY region ORDER BY region;
-- An alias that would be evaluated twice (non-deterministic) stays Spark's refusal.
SELECT region, sum(amount) + rand(7) AS total, rank() OVER (ORDER BY total) AS r FROM sales GROUP BY region;
-- A FROM column wins over an alias of the same name.
-- inlined: SELECT region, sum(amount) AS amount, rank() OVER (ORDER BY max(amount)) AS r FROM sales GROUP BY region ORDER BY region
SELECT region, sum(amount) AS amount, rank() OVER (ORDER BY max(amount)) AS r FROM sales GROUP BY region ORDER BY region;

-- (WHERE and subquery shapes: only with spark.colsem.lateralAlias.extraScopes naming them; by
-- default, IoTDB's design, these answer as vanilla Spark does, refusing the aliases)
SET spark.colsem.lateralAlias.extraScopes=WHERE,SUBQUERY;
-- shape: alias in a correlated scalar subquery
-- inlined: SELECT k + 1 AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < (lt.k + 1)) AS m FROM lt ORDER BY x, m
-- duckdb
SELECT k + 1 AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < x) AS m FROM lt ORDER BY x, m;
-- Unaliased, the subquery is named after the alias it reads.
-- inlined: SELECT k + 1 AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < (lt.k + 1)) AS `scalarsubquery(x)` FROM lt ORDER BY x
SELECT k + 1 AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < x) FROM lt ORDER BY x;
-- A later item uses the alias too: it is still computed once, below the list.
-- inlined: SELECT k + 1 AS x, (SELECT count(*) FROM lt2 WHERE lt2.k <= (lt.k + 1)) AS m, (k + 1) * 2 AS y FROM lt ORDER BY x
-- duckdb
SELECT k + 1 AS x, (SELECT count(*) FROM lt2 WHERE lt2.k <= x) AS m, x * 2 AS y FROM lt ORDER BY x;
-- A struct field of an alias.
-- inlined: SELECT named_struct('a', k) AS st, (SELECT max(v) FROM lt2 WHERE lt2.k = lt.k) AS m FROM lt ORDER BY m
SELECT named_struct('a', k) AS st, (SELECT max(v) FROM lt2 WHERE lt2.k = st.a) AS m FROM lt ORDER BY m;
-- The subquery's own column wins: lt2 has k, so `k` is lt2.k, and `v` below is lt2.v.
-- inlined: SELECT v AS k, (SELECT max(v) FROM lt2 WHERE lt2.k = lt2.k) AS m FROM lt ORDER BY k
-- duckdb
SELECT v AS k, (SELECT max(v) FROM lt2 WHERE lt2.k = k) AS m FROM lt ORDER BY k;
-- An outer column wins over an alias of the same name: `v` is lt.v.
-- inlined: SELECT k AS v, (SELECT count(*) FROM orders WHERE orders.qty < lt.v * 2) AS m FROM lt ORDER BY v, m
-- duckdb
SELECT k AS v, (SELECT count(*) FROM orders WHERE orders.qty < v * 2) AS m FROM lt ORDER BY v, m;
-- Left to right: an alias defined after the subquery is no outer reference.
SELECT (SELECT max(v) FROM lt2 WHERE lt2.k < x) AS m, k + 1 AS x FROM lt;
-- Two earlier aliases of the name: Spark's ambiguity error.
SELECT k AS x, v AS x, (SELECT max(v) FROM lt2 WHERE lt2.k < x) AS m FROM lt;

-- shape: alias in a correlated EXISTS
-- inlined: SELECT k + 1 AS x, EXISTS (SELECT 1 FROM lt2 WHERE lt2.k = (lt.k + 1)) AS e FROM lt ORDER BY x
-- duckdb
SELECT k + 1 AS x, EXISTS (SELECT 1 FROM lt2 WHERE lt2.k = x) AS e FROM lt ORDER BY x;

-- shape: alias IN a subquery
-- inlined: SELECT k + 2 AS x, (k + 2) IN (SELECT k FROM lt2) AS i FROM lt ORDER BY x
-- duckdb
SELECT k + 2 AS x, x IN (SELECT k FROM lt2) AS i FROM lt ORDER BY x;
-- inlined: SELECT k + 1 AS x, 3 IN (SELECT lt2.k FROM lt2 WHERE lt2.v > (lt.k + 1) * 2) AS i FROM lt ORDER BY x
-- duckdb
SELECT k + 1 AS x, 3 IN (SELECT lt2.k FROM lt2 WHERE lt2.v > x * 2) AS i FROM lt ORDER BY x;

-- shape: alias in a subquery's own SELECT list
-- inlined: SELECT k AS x, (SELECT lt.k * 10) AS m FROM lt ORDER BY x
-- duckdb
SELECT k AS x, (SELECT x * 10) AS m FROM lt ORDER BY x;

-- shape: select alias in WHERE
-- inlined: SELECT price * qty AS total FROM orders WHERE price * qty > 100 ORDER BY total
-- duckdb
SELECT price * qty AS total FROM orders WHERE total > 100 ORDER BY total;
-- inlined: SELECT id, price * qty AS total FROM orders WHERE price * qty > 60 AND id < 3 ORDER BY id
-- duckdb
SELECT id, price * qty AS total FROM orders WHERE total > 60 AND id < 3 ORDER BY id;
-- With a star.
-- inlined: SELECT *, price * qty AS total FROM orders WHERE price * qty > 100
-- duckdb
SELECT *, price * qty AS total FROM orders WHERE total > 100;
-- In an aggregate list (per row in WHERE, per group in the list).
-- inlined: SELECT k + 1 AS x, count(*) AS c FROM lt WHERE k + 1 > 1 GROUP BY k ORDER BY x
-- duckdb
SELECT k + 1 AS x, count(*) AS c FROM lt WHERE x > 1 GROUP BY k ORDER BY x;

-- With a subquery in the list that reads the same alias.
-- inlined: SELECT k + 1 AS x, (SELECT count(*) FROM lt2 WHERE lt2.k < lt.k + 1) AS m FROM lt WHERE k + 1 > 2 ORDER BY x
-- duckdb
SELECT k + 1 AS x, (SELECT count(*) FROM lt2 WHERE lt2.k < x) AS m FROM lt WHERE x > 2 ORDER BY x;

-- shape: WHERE alias that uses another alias
-- inlined: SELECT k + 1 AS b, (k + 1) * 2 AS c FROM lt WHERE (k + 1) * 2 > 4 ORDER BY b
-- duckdb
SELECT k + 1 AS b, b * 2 AS c FROM lt WHERE c > 4 ORDER BY b;

-- shape: WHERE name that is also a FROM column
-- inlined: SELECT k AS v FROM lt WHERE lt.v > 10 ORDER BY v
-- duckdb
SELECT k AS v FROM lt WHERE v > 10 ORDER BY v;

-- shape: WHERE alias of an aggregate
-- duckdb
SELECT region, sum(amount) AS total FROM sales WHERE total > 2 GROUP BY region;
-- An alias that uses an aggregate's alias.
SELECT region, sum(amount) AS total, total * 2 AS doubled FROM sales WHERE doubled > 2 GROUP BY region;

-- shape: WHERE alias of a window function
-- duckdb
SELECT k, row_number() OVER (ORDER BY v) AS rn FROM lt WHERE rn = 1;

-- shape: WHERE alias: forward reference and ambiguity
-- duckdb
SELECT y + 1 AS x, k AS y FROM lt WHERE x > 1;
-- Two items with the alias: Spark's ambiguity error, as in the list (DuckDB takes the first).
SELECT k AS x, v AS x FROM lt WHERE x > 1;

-- The design's non-goals, colsem's default: WHERE resolves through the FROM input only, and
-- aliases do not enter subquery scopes (vanilla's UNRESOLVED_COLUMN, plus a hint naming the setting).
RESET spark.colsem.lateralAlias.extraScopes;
-- shape: WHERE or subquery alias with the default scopes
SELECT k AS x FROM lt WHERE x > 1;
SELECT k AS x, (SELECT x FROM lt2) AS y FROM lt;
