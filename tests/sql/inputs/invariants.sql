-- Schema invariants 1 and 2 with plain SQL (spark.colsem.invariants=error). Invariants 3-6 need
-- broken rules: tests/test_invariants.py injects deliberately broken ones.
SET spark.colsem.invariants=error;
-- Invariant 1: a qualifier never reaches an output name; a dotted name is one the user writes.
SELECT t1.s1 FROM t1 WHERE t1.s1 = 1;
SELECT t1.s1 + 1, upper(t1.s2) FROM t1 WHERE s1 = 1;
SELECT t1.s1 AS `t1.s1`, s2 AS `t1.s2` FROM t1 WHERE s1 = 1;
SELECT * FROM (SELECT s1 AS `t1.s1` FROM t1) AS t1 ORDER BY 1;
SELECT x.* FROM t1 AS x WHERE x.s1 = 2;
-- Invariant 2: a self-join without aliases produces the same (relation, name) twice.
SELECT * FROM t1 JOIN t1 ON true;
SELECT * FROM t1 JOIN t1 USING (s1);
-- With aliases the relations differ; the final output may repeat a bare name.
SELECT a.s1, b.s1 FROM t1 AS a JOIN t1 AS b ON a.s1 = b.s1 ORDER BY 1, 2;
SELECT t1.s1, t2.id FROM t1 JOIN t2 ON t1.s1 = t2.id ORDER BY 1;
-- The same field twice is one field.
SELECT t1.s1, t1.s1 FROM t1 ORDER BY 1;
SELECT * FROM (SELECT 1 AS x, 2 AS x) AS s;
-- A subquery is its own scope.
SELECT s1 FROM t1 WHERE s1 IN (SELECT s1 FROM t1 WHERE s2 = 'a');
SET spark.colsem.invariants=warn;
SELECT count(*) AS n FROM t1 JOIN t1 ON true;
SET spark.colsem.invariants=off;
SELECT count(*) AS n FROM t1 JOIN t1 ON true;
SET spark.colsem.invariants=strict;
SELECT 1;
RESET spark.colsem.invariants;
SET spark.colsem.invariants=error;
-- ROLLUP carries copies of the grouping columns beside them (internal, not duplicates).
SELECT s1, s2, count(*) AS n FROM t1 GROUP BY ROLLUP (s1, s2) ORDER BY s1, s2;
-- Views and CTEs are checked like the queries they stand for.
WITH c AS (SELECT s1, s2 FROM t1) SELECT c.s1, upper(c.s2) FROM c WHERE c.s1 = 1;
WITH c AS (SELECT s1 FROM t1) SELECT * FROM c JOIN c ON true;
