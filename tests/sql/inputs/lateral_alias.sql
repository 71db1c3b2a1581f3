-- Lateral column aliases (colsem default: spark.colsem.lateralAlias.enabled=true).
-- tests/test_lateral_alias.py also runs every statement with Spark's native support and checks
-- that each one native accepts gives the same schema and rows.
CREATE TEMPORARY VIEW tx AS SELECT * FROM VALUES (1, 10), (2, 20) AS tx(s1, x);
-- Left to right.
SELECT s1 AS x, x + 1 AS y, y * 2 AS z FROM t1 ORDER BY x, s2;
-- No forward references; an item does not see its own alias.
SELECT y + 1 AS x, s1 AS y FROM t1;
-- Also when a later item uses that alias, which is then computed below the list (once answered).
SELECT y + 1 AS x, s1 AS y, y * 2 AS z FROM t1;
SELECT s1 + 1 AS s9, s9 + 1 AS s9 FROM t1 ORDER BY 1;
SELECT x + 1 AS x FROM t1;
-- Only the first part of a name can be an alias; qualified names stay columns.
SELECT s1 AS x, t1.x FROM t1;
SELECT s1 AS s, t1.s1 + s FROM t1 ORDER BY 1;
-- A FROM column beats an alias of the same name.
SELECT s1 + 100 AS x, x + 1 AS y FROM tx ORDER BY 1;
-- Two earlier aliases of one name: ambiguous, unless the FROM clause has that column.
SELECT s1 AS x, s3 AS x, x + 1 FROM t1;
SELECT s1 AS x, s1 * 2 AS x, x AS y FROM tx ORDER BY 1, 2;
-- Inside a subquery its own columns come first: tx has x, so max(x) is tx's.
SELECT s1 AS x, (SELECT max(x) FROM tx) AS m FROM t1 ORDER BY 1;
-- By default (IoTDB's design) an alias does not enter a subquery: vanilla's UNRESOLVED_COLUMN,
-- plus a hint naming the setting.
SELECT s1 AS s9, (SELECT count(*) FROM t2 WHERE t2.id = s9) AS m FROM t1 ORDER BY 1;
SET spark.colsem.lateralAlias.extraScopes=SUBQUERY;
-- With SUBQUERY, a name the subquery lacks is the earlier alias, as an outer reference (computed
-- once, below the list): Spark refuses max(outer s1) as it refuses `(SELECT max(t1.s1) FROM t2)`.
SELECT s1 AS s9, s9 + 1 AS y, (SELECT max(s9) FROM t2) AS m FROM t1;
-- In a correlated predicate it is answered.
SELECT s1 AS s9, s9 + 1 AS y, (SELECT count(*) FROM t2 WHERE t2.id = s9) AS m FROM t1 ORDER BY 1;
RESET spark.colsem.lateralAlias.extraScopes;
-- A bare alias as an item, and case-insensitive names.
SELECT s2 AS name, NAME FROM t1 ORDER BY 1;
-- Unaliased items are named exactly as Spark's native support names them.
SELECT s1 AS x, x + 1, CAST(X AS BIGINT), upper(s2) AS u, concat(u, x), array(x) AS arr, arr[0], x FROM t1 ORDER BY 1, 4;
-- Struct fields of an alias.
SELECT named_struct('a', s1, 'b', s2) AS st, st.a + 1, st.b AS b FROM t1 ORDER BY 2, 3;
-- Lambdas see aliases; a lambda parameter shadows one.
SELECT array(s1, 10) AS arr, s1 AS x, transform(arr, v -> v + x) AS tr, transform(arr, x -> x * 2) AS tr2 FROM t1 ORDER BY x, s2;
SELECT array(s1, 10) AS arr, s1 AS x, transform(arr, v -> v + x) FROM t1 ORDER BY x, s2;
-- Generators (native Spark: INTERNAL_ERROR).
SELECT array(id, id + 1) AS arr, explode(arr) AS e FROM t2 ORDER BY e;
-- Windows over an alias (native Spark refuses them).
SELECT s1 AS x, sum(x) OVER (ORDER BY x, s2) AS w FROM t1 ORDER BY x, w;
-- An unaliased window item (the fuzzer found these refused as in native Spark).
SELECT s1 AS x, sum(x) OVER (ORDER BY x, s2), x + 1 FROM t1 ORDER BY 1, 2;
-- Outside the window function, native names (the fuzzer found these changed).
SELECT 9 AS v, dense_rank() OVER (ORDER BY s1) + v, v + 1 FROM t1 ORDER BY 2;
SELECT row_number() OVER (ORDER BY s1, s2) AS rn, rn + 1 AS rn2 FROM t1 ORDER BY rn;
-- Aggregates over aliases, and aliases of aggregates.
SELECT avg(s1) AS a, a + 1 AS b FROM t1;
SELECT s1 AS k, count(*) AS c, c * 10 AS c10 FROM t1 GROUP BY s1 ORDER BY k;
SELECT s1 AS x, avg(s3) + x AS y FROM t1 GROUP BY s1 ORDER BY x;
SELECT s1 AS x, avg(s3) + x AS y FROM t1;
-- Inside aggregate arguments: per row (native Spark refuses).
SELECT s1 * 2 AS x, sum(x) FROM t1 GROUP BY s1 ORDER BY x;
SELECT s1 AS k, s1 * 2 AS x, sum(x) AS sx, sx + 1 AS y, max(x), count(x) FROM t1 GROUP BY s1 ORDER BY k;
SELECT s1 AS k, s3 * 10 AS v, sum(v) AS total, total / count(*) AS mean FROM t1 GROUP BY s1, s3 ORDER BY k, v;
-- GROUP BY aliases that use aliases (native Spark refuses).
SELECT s1 AS x, x + 1 AS y, count(*) FROM t1 GROUP BY x, y ORDER BY x;
-- ... also when the input column is not grouped by itself (the fuzzer found MISSING_AGGREGATION).
SELECT 10 AS c, s1 + c AS y, count(*) FROM t1 GROUP BY c, y ORDER BY y;
-- Aggregate, window and HAVING together (native Spark refuses).
SELECT s1 AS k, count(*) AS c, c + 1 AS d, rank() OVER (ORDER BY s1) AS rk FROM t1 GROUP BY s1 HAVING count(*) >= 1 ORDER BY k;
-- Evaluated once: a non-deterministic alias used twice.
SELECT rand(42) AS r, r AS r2, r = r2 AS same FROM range(4) ORDER BY r;
-- DISTINCT, set operations, CTEs.
SELECT DISTINCT s1 AS x, x * 2 AS y FROM t1 ORDER BY x;
SELECT s1 AS x, x + 1 AS y FROM t1 UNION ALL SELECT id AS a, a * 10 AS b FROM t2 ORDER BY 1, 2;
WITH c AS (SELECT s1 AS x, x + 1 AS y FROM t1) SELECT y, y * 2 AS z FROM c ORDER BY y;
-- Deterministic functions, types and NULLs flow through.
SELECT s2 AS name, upper(name) AS u, concat(u, '!') AS e, s3 AS d, d * 2 AS d2 FROM t1 ORDER BY s1, s2;
-- Turning the feature off gives Spark's native behaviour.
SET spark.colsem.lateralAlias.enabled=false;
SELECT s1 AS x, x + 1 AS y FROM t1 ORDER BY x, y;
-- A global aggregate (no GROUP BY): per-group references stay with the aggregate (the fuzzer found
-- these failing with MISSING_GROUP_BY).
SELECT true AS y, CASE WHEN y THEN 5 ELSE count(t1.s2) END FROM t1;
SELECT count(*) AS n, n * 10 AS n10, max(s1) AS m, m + n FROM t1;
