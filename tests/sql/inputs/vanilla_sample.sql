-- With colsem loaded and default settings these keep vanilla Spark's exact names, types and rows
-- (tests/test_conservative.py also runs them on a vanilla JVM and compares).
SELECT * FROM t1 ORDER BY s1, s2;
SELECT t1.*, s1 + 1 FROM t1 ORDER BY s1, s2;
SELECT s1, s2 AS name, s3 * 2, -s1, s1 <> 1, upper(s2), 'lit', CAST(s1 AS BIGINT) FROM t1;
SELECT s1 AS x, x + 1 AS y, y * 2 AS z FROM t1;
SELECT count(*), count(1), sum(s1), avg(s3), max(s2) FROM t1;
SELECT s1 AS k, count(*) AS c FROM t1 GROUP BY k HAVING c > 0 ORDER BY k;
SELECT s1, s2, rank() OVER (PARTITION BY s1 ORDER BY s2) FROM t1;
SELECT t1.s1, t2.name FROM t1 JOIN t2 ON t1.s1 = t2.id;
SELECT s1, (SELECT max(id) FROM t2) FROM t1;
SELECT s1 FROM t1 WHERE s1 IN (SELECT id FROM t2);
WITH c AS (SELECT s1 AS a, s3 AS b FROM t1) SELECT a, b FROM c WHERE b IS NOT NULL;
SELECT id, explode(tags) FROM t2;
SELECT id, transform(tags, v -> upper(v)) FROM t2;
SELECT named_struct('a', s1, 'b', s2) AS st FROM t1;
SELECT DISTINCT s1 FROM t1 UNION ALL SELECT id FROM t2;
SELECT s1 + 1 AS s1, s1 FROM t1;
SELECT * EXCEPT (s3) FROM t1;
SELECT nope FROM t1;
