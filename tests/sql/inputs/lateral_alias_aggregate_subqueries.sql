-- A subquery of an aggregate SELECT list naming an earlier alias of the list: with extraScopes
-- including SUBQUERY the alias is the group's value, read as an outer reference, as if the
-- aggregate were a derived table (the statement after each is that form, written by hand); by
-- default vanilla's UNRESOLVED_COLUMN plus a hint naming the setting.
CREATE TEMPORARY VIEW t AS SELECT * FROM VALUES (1, 10), (2, 20), (3, 30), (3, 40) AS t(k, v);
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) FROM t GROUP BY v;
SELECT k AS g, count(*) AS n, EXISTS (SELECT 1 FROM t t2 WHERE t2.k > g) AS later FROM t GROUP BY k;
SET spark.colsem.lateralAlias.extraScopes=SUBQUERY;
-- Scalar: an aggregate's alias (the unaliased item is named scalarsubquery(m)).
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) FROM t GROUP BY v ORDER BY g;
SELECT g, m, (SELECT count(*) FROM t t2 WHERE t2.k < m) FROM (SELECT v AS g, max(k) AS m FROM t GROUP BY v) ORDER BY g;
-- EXISTS over a GROUP BY column's alias, a scalar subquery over two aliases.
SELECT k AS g, count(*) AS n, EXISTS (SELECT 1 FROM t t2 WHERE t2.k > g) AS later, (SELECT max(t2.v) FROM t t2 WHERE t2.k = g AND t2.v < n * 20) AS c FROM t GROUP BY k ORDER BY g;
SELECT g, n, EXISTS (SELECT 1 FROM t t2 WHERE t2.k > g) AS later, (SELECT max(t2.v) FROM t t2 WHERE t2.k = g AND t2.v < n * 20) AS c FROM (SELECT k AS g, count(*) AS n FROM t GROUP BY k) ORDER BY g;
-- A global aggregate; an alias that reads another alias; a grouped column read beside the alias.
SELECT max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t;
SELECT max(k) AS m, m + 1 AS m1, (SELECT count(*) FROM t t2 WHERE t2.k < m1) AS c FROM t GROUP BY v ORDER BY c, m;
SELECT m, m1, (SELECT count(*) FROM t t2 WHERE t2.k < m1) AS c FROM (SELECT max(k) AS m, max(k) + 1 AS m1 FROM t GROUP BY v) ORDER BY c, m;
SELECT v, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m AND t2.v <> t.v) AS c FROM t GROUP BY v ORDER BY v;
SELECT v, max(k) AS m, (SELECT m * 10) AS c FROM t GROUP BY v ORDER BY v;
-- GROUP BY an alias, an ordinal, ROLLUP of an alias: Spark resolves these against the list once
-- it has resolved, so the subqueries move up first (an ordinal counted without them). ROLLUP of
-- an alias from Spark 4.2 only (results/3.5, 4.0, 4.1: UNRESOLVED_COLUMN, docs/versions.md).
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY g ORDER BY g;
SELECT g, m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM (SELECT v AS g, max(k) AS m FROM t GROUP BY g) ORDER BY g;
SELECT (SELECT count(*) FROM t t2 WHERE t2.k < 2) AS c, v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS d FROM t GROUP BY 2 ORDER BY g;
SELECT c, g, m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS d FROM (SELECT (SELECT count(*) FROM t t2 WHERE t2.k < 2) AS c, v AS g, max(k) AS m FROM t GROUP BY 2) ORDER BY g;
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY ROLLUP(g) ORDER BY g;
SELECT g, m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM (SELECT v AS g, max(k) AS m FROM t GROUP BY ROLLUP(g)) ORDER BY g;
-- Not read there: a grouped column beside the alias (grouped or not is known only later); an
-- ordinal of the subquery's own item.
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m AND t2.v <> t.v) AS c FROM t GROUP BY g;
SELECT v AS g, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY 3;
-- Not read: a forward reference; a column that is not grouped, an aggregate outside the subquery
-- in the same item, a list under HAVING (Spark's UNRESOLVED_COLUMN).
SELECT v, (SELECT m * 10) AS c, max(k) AS m FROM t GROUP BY v;
SELECT v, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m AND t2.v <> t.k) AS c FROM t GROUP BY v;
SELECT v, max(k) AS m, count(*) + (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY v;
SELECT v, max(k) AS m, (SELECT count(*) FROM t t2 WHERE t2.k < m) AS c FROM t GROUP BY v HAVING c > 0;
RESET spark.colsem.lateralAlias.extraScopes;
