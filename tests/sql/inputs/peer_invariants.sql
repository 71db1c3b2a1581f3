-- Spark's own SQL test corpus (the inputs of SQLQueryTestSuite) with spark.colsem.invariants=error:
-- statements vanilla Spark answers must get vanilla Spark's answer, not a schema-invariant error.
-- Each is a minimal form of the corpus statements in the file named above it.
SET spark.colsem.invariants=error;
-- Invariant 5 allows a field to become as nullable as Spark's own optimizer makes it.
-- random.sql: uniform's replacement is nullable.
SELECT uniform(0, 1, 0) AS result;
-- join-lateral.sql: a COUNT(*) decorrelated into an outer join.
SELECT s1, cnt FROM t1, LATERAL (SELECT COUNT(*) AS cnt FROM t2 WHERE id = t1.s1) ORDER BY s1, cnt;
-- subquery/in-subquery/in-group-by.sql: IN (subquery) in a grouped SELECT list.
SELECT s1, s1 IN (SELECT id FROM t2) AS found FROM t1 GROUP BY s1 ORDER BY s1;
-- intersect-all.sql: INTERSECT is NOT NULL where either side is; its rewrite is not.
SELECT * FROM VALUES (1L, 2L) AS tab1(k, v) INTERSECT ALL SELECT CAST(1 AS BIGINT), CAST(2 AS BIGINT);
SELECT * FROM VALUES (1L, 2L) AS tab1(k, v) INTERSECT SELECT 1L, 2L;
-- Invariant 5 compares a query's own plans: an analysis Spark runs under the query's id after
-- planning it (the row encoder of a collect) does not replace its analyzed plan.
-- cte-recursion.sql: each iteration of a recursive CTE is collected.
WITH RECURSIVE r(level, data) AS (VALUES (0, 0) UNION ALL SELECT r1.level + 1, r1.data FROM r AS r1 JOIN r AS r2 ON r2.data = r1.data WHERE r1.level < 3) SELECT * FROM r ORDER BY level;
-- scripting/: a FOR loop over a query.
BEGIN DECLARE total INT DEFAULT 0; FOR r AS SELECT s1 FROM t1 DO SET total = total + r.s1; END FOR; SELECT total; END;
-- describe-part-after-analyze.sql: ANALYZE TABLE counts rows per partition with a query.
CREATE TABLE peer_parts (k STRING, ds STRING, hr INT) USING parquet PARTITIONED BY (ds, hr);
INSERT INTO peer_parts PARTITION (ds = '2017-08-01', hr = 10) VALUES ('k1'), ('k2');
INSERT INTO peer_parts PARTITION (ds = '2017-08-01', hr = 11) VALUES ('k3');
ANALYZE TABLE peer_parts PARTITION (ds = '2017-08-01') COMPUTE STATISTICS;
ANALYZE TABLE peer_parts PARTITION (ds, hr) COMPUTE STATISTICS;
DROP TABLE peer_parts;
-- Invariant 3 allows a rename that only changes case under case-insensitive analysis.
-- group-by-alias.sql: planning names the grouping column as GROUP BY wrote it.
SELECT s1 FROM t1 GROUP BY S1 ORDER BY s1;
CREATE TEMPORARY VIEW lt1(c1, c2) AS VALUES (0, 1), (1, 2);
CREATE TEMPORARY VIEW lt2(c1, c2) AS VALUES (0, 2), (0, 3);
-- Invariant 1: Spark writes a correlated reference as outer(relation.column).
-- join-lateral.sql and subquery/subquery-nested-data.sql.
SELECT * FROM lt1, LATERAL (SELECT lt1.c1 + c1 FROM lt2) ORDER BY 1, 2, 3;
SELECT * FROM (SELECT * FROM VALUES (map(1, 10)) AS x(xm)) AS x JOIN LATERAL (SELECT xm[1], xm[1] - id FROM t2) ORDER BY 3;
-- sql-udf.sql: a generated name shows a string literal's text as written: `T.b: ` is no qualifier.
SELECT concat('T.b: ', b), 'T.c' || c FROM VALUES ('x', 'y') AS T(b, c);
-- Invariant 2 checks only relations a user named.
-- join-lateral.sql: unaliased subqueries, all named __auto_generated_subquery_name by Spark.
SELECT * FROM (SELECT s1 FROM t1), (SELECT id AS s1 FROM t2) ORDER BY 1, 2;
SELECT * FROM LATERAL (SELECT s1 FROM t1), LATERAL (SELECT id AS s1 FROM t2) ORDER BY 1, 2;
SELECT * FROM lt1, LATERAL (SELECT lt1.*, lt2.* FROM lt2) ORDER BY 1, 2, 3, 4, 5, 6;
-- cte-recursion.sql: the loop of a recursive CTE whose anchor lists one column twice.
WITH RECURSIVE tmp(x) AS (VALUES (1), (2), (3)), rcte(x, y) AS (SELECT x, x FROM tmp WHERE x = 1 UNION ALL SELECT x + 1, x FROM rcte WHERE x < 3) SELECT * FROM rcte ORDER BY x;
-- sql-udf.sql: two calls of one SQL function (its parameters, projected below the calls).
CREATE TEMPORARY FUNCTION peer_f(a INT DEFAULT 10) RETURNS INT RETURN a;
SELECT peer_f(5), peer_f();
-- What a user wrote twice stays an error.
SELECT * FROM t1 JOIN t1 ON true;
WITH t(x, x) AS (SELECT 1, 2) SELECT * FROM t;
-- scripting/randomly_generated_scripts.sql, with postgres naming and star strategies on: a scalar
-- subquery of an IF runs in a thread of its own after the condition's query was planned. Its
-- check compared its plan with the encoder's analyzed plan (a false violation), which Spark
-- wraps in an exception without an error class: the script's handler lookup then failed with a
-- NullPointerException.
SET spark.colsem.naming.dialect=postgres;
SET spark.colsem.star.exclude=TAGGED,PATTERN;
BEGIN DECLARE n INT DEFAULT 0; IF (SELECT COUNT(*) FROM t2 WHERE tags IS NULL) > 0 THEN SET n = 1; END IF; SELECT n; END;
BEGIN DECLARE n INT DEFAULT 0; DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN VALUES ('handled'); END; FOR r AS SELECT id FROM t2 LIMIT 3 DO SET n = n + (SELECT COUNT(*) FROM t2 WHERE id = r.id); END FOR; IF n < 5 AND (SELECT COUNT(*) FROM t2 WHERE tags IS NULL) > 0 THEN SELECT n; END IF; END;
