-- Minimal queries the differential fuzzer (make fuzz) found failing; expected
-- output from vanilla Spark (for the inline oracle: the inlined form's rows).
-- The tables are the fuzzer's (fuzz/data.py); aliases are read in WHERE and in
-- subqueries too, as in the runs that found them.
CREATE TABLE fa USING parquet AS SELECT CAST(c0 AS INT) AS id, CAST(c1 AS INT) AS k, CAST(c2 AS INT) AS x, CAST(c3 AS STRING) AS s, CAST(c4 AS DOUBLE) AS d, CAST(c5 AS DATE) AS dt, CAST(c6 AS ARRAY<INT>) AS arr, CAST(c7 AS STRUCT<a: INT, b: STRING>) AS st, CAST(c8 AS INT) AS _ingest FROM VALUES
  (1, 1, 10, 'a', 1.5, DATE '2024-01-01', array(1, 2), named_struct('a', 1, 'b', 'p'), 100),
  (2, 2, NULL, 'b', NULL, DATE '2024-02-29', array(), named_struct('a', 2, 'b', NULL), 101),
  (3, NULL, 30, NULL, -2.25, NULL, NULL, NULL, 102),
  (4, 3, -1, 'c', 0.0, DATE '2023-12-31', array(3, NULL), named_struct('a', NULL, 'b', 'q'), 103),
  (5, 3, 0, 'a', 4.75, DATE '2024-01-01', array(5), named_struct('a', 5, 'b', 'p'), 104),
  (6, -2, 7, 'B', -0.5, DATE '2024-03-15', array(2, 2, 2), named_struct('a', 6, 'b', 'r'), 105),
  (7, 0, NULL, '', 8.0, DATE '2024-01-02', array(0), NULL, 106),
  (8, 1, 3, 'd', NULL, DATE '2024-02-01', array(1), named_struct('a', 8, 'b', 'p'), 107)
  AS v(c0, c1, c2, c3, c4, c5, c6, c7, c8);

CREATE TABLE fb USING parquet AS SELECT CAST(c0 AS INT) AS id, CAST(c1 AS INT) AS k, CAST(c2 AS INT) AS y, CAST(c3 AS STRING) AS s, CAST(c4 AS STRING) AS name, CAST(c5 AS DOUBLE) AS v, CAST(c6 AS ARRAY<INT>) AS arr FROM VALUES
  (1, 1, 5, 'a', 'one', 2.5, array(1)),
  (2, 3, NULL, 'c', 'two', NULL, array(2, 3)),
  (3, 3, 6, NULL, NULL, -1.25, NULL),
  (4, NULL, 7, 'b', 'four', 0.75, array()),
  (5, 9, -3, 'a', 'five', 10.0, array(9, 9)),
  (6, 2, 0, 'e', 'six', 0.25, array(NULL)),
  (7, 1, 2, 'A', 'seven', 3.0, array(1, 2, 3))
  AS v(c0, c1, c2, c3, c4, c5, c6);

CREATE TABLE fc USING parquet AS SELECT CAST(c0 AS INT) AS id, CAST(c1 AS INT) AS k, CAST(c2 AS INT) AS x, CAST(c3 AS STRING) AS w, CAST(c4 AS DATE) AS dt FROM VALUES
  (1, 1, 4, 'x', DATE '2024-01-01'),
  (2, 2, NULL, 'y', NULL),
  (3, NULL, 8, NULL, DATE '2024-02-29'),
  (4, 4, 1, 'x', DATE '2022-06-30'),
  (5, 3, 2, 'zz', DATE '2024-01-01'),
  (6, 0, -5, 'y', DATE '2023-12-31')
  AS v(c0, c1, c2, c3, c4);

SET spark.colsem.lateralAlias.extraScopes=WHERE,SUBQUERY;

SELECT true AS a2, (d + CASE WHEN a2 THEN 1 ELSE 1 END), * FROM fa AS t1;

SELECT s AS a2, (max(a2) || a2) AS col2 FROM fa AS t1 GROUP BY a2;

SELECT k AS a3, sum(a3) AS s, a3 + 1 AS b FROM fa AS t1 GROUP BY k;

WITH cte0 AS (SELECT 'A' AS tot FROM fa AS t1) SELECT 'b' AS s, (tot || s) AS z FROM cte0 AS t2 GROUP BY s, z;

SELECT t2.k AS w2, (t2.k - y) AS tot, min(t2.id) OVER (PARTITION BY (t2.k * tot)) AS m FROM fb AS t1 LEFT JOIN fc AS t2 USING (id, k);

SELECT t2.id AS w, sum(w) AS x FROM fb AS t1 JOIN fa AS t2 USING (id, k) GROUP BY t2.id;

SELECT x AS y2, max(id) OVER (ORDER BY y2) AS id2, id2 + 1 AS z FROM fc AS t1;

WITH cte0 AS (SELECT 0.5 FROM fa AS t1) SELECT true AS m, CASE WHEN m THEN 'p' ELSE (SELECT 'a' FROM fb AS t5) END AS col2 FROM cte0 AS t3;

WITH cte0 AS (SELECT DATE '2024-02-29' AS w, -1 AS x, coalesce(CAST(NULL AS DOUBLE), avg(d)) AS z FROM fa AS t1 WHERE true GROUP BY t1.s), cte1 AS (SELECT ((6 * size(array(3))) * t2.k) AS x, date_add(DATE '2024-01-01', x) AS a1, CAST((- x) AS DOUBLE) AS v FROM fc AS t2) SELECT max(t3.w) AS s FROM fc AS t3 WHERE true GROUP BY t3.id EXCEPT SELECT (SELECT min(t5.s) FROM fa AS t5) AS d FROM cte1 AS t4 WHERE (NOT true);

WITH cte0 AS (SELECT * FROM fc AS t1) SELECT try_element_at(array(1, 2), 1) AS a1, t3.K AS id2, A1 AS v, least(greatest(id2, ID2), CASE WHEN false THEN count(*) ELSE ID2 END) AS y FROM cte0 AS t2 LEFT JOIN cte0 AS t3 ON (t2.k = t3.X) GROUP BY a1, id2 HAVING (count((t3.w || t2.w)) <> -1);

SELECT 'a' AS tot, tot AS col2, 1 AS col3 FROM fb AS t1 EXCEPT SELECT w AS a2, A2 AS col2, X AS id2 FROM fc AS t5 JOIN fb AS t6 ON true WHERE (id2 NOT IN (SELECT 1 FROM fb AS t7));

SELECT 0 AS a1, min(0.5) OVER (PARTITION BY A1 ORDER BY 0.5, 0.5 DESC) AS col2 FROM fc AS t1 GROUP BY CUBE(a1);

SELECT 5 FROM fb AS t1 GROUP BY ALL;

SELECT (- 9) AS a2 FROM fc AS t1 WHERE (a2 IN (5, 8)) GROUP BY CUBE(a2);

-- With the default scopes (seed 3, queries 1704, 2922): a name inside a subquery of a WHERE, which
-- Spark resolves in the subquery's own FROM later in the analysis, is no select alias read in
-- WHERE (colsem reported it as one before the subquery resolved).
RESET spark.colsem.lateralAlias.extraScopes;
SELECT 'x' FROM fb AS t1 LEFT JOIN (SELECT k AS s FROM fc AS t2 WHERE ((SELECT max(s) FROM fb AS t3) <> W)) AS t4 ON true;

SELECT false, '' AS w, w AS k FROM fb AS t1 LEFT JOIN fa AS t2 USING (k, s) WHERE (((SELECT min(length(w)) FROM fc AS t3) > x) AND (NOT true)) GROUP BY _ingest, x;
