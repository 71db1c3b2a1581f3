-- spark.colsem.naming.dialect: postgres, mysql, sqlite (tests/test_naming_engines.py compares
-- the 193-item corpus with the real systems; this file shows them at every SELECT level).
-- A bad value fails with the valid ones.
SET spark.colsem.naming.dialect=oracle;
SELECT 1;
SET spark.colsem.naming.dialect=spark;
SELECT s1 <> 1, count(*), -2, CAST(s1 AS BIGINT), (SELECT max(id) FROM t2) FROM t1 GROUP BY s1 ORDER BY 1;
SET spark.colsem.naming.dialect=POSTGRES;
SELECT s1 <> 1, count(*), -2, CAST(s1 AS BIGINT), CAST(1 AS BIGINT), (SELECT max(id) FROM t2), S1, t1.S2 FROM t1 GROUP BY s1, s2 ORDER BY 1;
SELECT CASE WHEN s1 > 1 THEN 'big' ELSE s2 END, CASE s1 WHEN 1 THEN 'one' END, upper(s2), trim(s2), DATE '2020-01-02' FROM t1 ORDER BY 1, 2;
-- Inner unaliased items are named too: the outer query refers to them by PostgreSQL's names.
SELECT `?column?`, upper FROM (SELECT s1 + 1, upper(s2) FROM t1) ORDER BY 1;
WITH c AS (SELECT s1 * 2, s1 * 3 FROM t1) SELECT * FROM c ORDER BY 1;
SELECT `?column?` FROM (SELECT s1 * 2, s1 * 3 FROM t1);
-- Lateral aliases see only explicit aliases, not the implicit `s1` of the CAST.
SELECT 10 AS x, CAST(s1 AS BIGINT), x + 1 FROM t1 ORDER BY 2;
-- Grouped by items that use lateral aliases (GROUP BY ALL, ordinals): an unaliased item keeps
-- its dialect name (the fuzzer's query 335 of seed 11 was an INTERNAL_ERROR here).
SELECT s1 AS w, 0.5, w + 1 FROM t1 GROUP BY ALL ORDER BY 1;
SELECT s1 AS w, 0.5, w + 1, count(*) FROM t1 GROUP BY 1, 2, 3 ORDER BY 1;
SELECT s1 AS w, w * 2, count(*) FROM t1 GROUP BY ROLLUP(1, 2) ORDER BY 1, 2;
SET spark.colsem.naming.dialect=mysql;
SELECT s1 <> 1, COUNT( * ), -2, 'foo', NULL, true, s1 /* c */ + 1, t1.S1 FROM t1 GROUP BY s1 ORDER BY 1, 8;
SELECT `s1+1` FROM (SELECT s1+1 FROM t1) ORDER BY 1;
SELECT s1+1 FROM t1 UNION SELECT id FROM t2 ORDER BY 1;
-- An item reading a lateral alias is named by its own text, not the statement's.
SELECT s1 AS w, w + 1, (w  *  2), rank() OVER (ORDER BY 'x', round(0.5, 1) DESC) FROM t1 ORDER BY 1;
-- A ranking window beside a name that does not resolve: Spark's error, as with the default (the
-- fuzzer's query 1043 of seed 24 was an INTERNAL_ERROR under every dialect but spark).
SELECT rank() OVER (ORDER BY 'x', round(0.5, 1) DESC), t1.nope FROM t1;
SET spark.colsem.naming.dialect=sqlite;
SELECT s1 <> 1, COUNT( * ), -2, 'foo', s1 /* c */ + 1, S1, t1.S2 FROM t1 GROUP BY s1, s2 ORDER BY 1, 6;
SELECT `S1`, `'x'` FROM (SELECT S1, 'x' FROM t1) ORDER BY 1;
SELECT S1 FROM t1 UNION ALL SELECT id FROM t2 ORDER BY 1;
SELECT s1 AS w, w + 1, dense_rank() OVER (ORDER BY round(0.5, 1) DESC) FROM t1 ORDER BY 1;
-- `true` and `false` by their own text, not another statement's (Spark 4.1's parser shares them).
SELECT true, NOT false, s1 > 1 OR false FROM t1 ORDER BY 3;
SELECT TRUE, NOT FALSE, s1 > 1 OR FALSE FROM t1 ORDER BY 3;
