-- spark.colsem.naming.dialect=canonical: DataFusion's output-field-name rules (docs/naming.md).
SET spark.colsem.naming.dialect=canonical;
-- Rule 1: no relation qualifier, inside expressions too.
SELECT t1.s1, s1, t1.s1 + t2.id FROM t1 JOIN t2 ON t1.s1 = t2.id ORDER BY 1;
-- Rule 2: function names in lower case, arguments joined by ', '.
SELECT AVG(s1), Abs(s1), COALESCE(s2,'z',s2), concat(s2,s2) FROM t1 GROUP BY s1, s2 ORDER BY 1, 4;
-- Rule 3: string literals without quotes.
SELECT 'foo', "bar", 'it''s';
-- Rule 4: operators in parentheses, spaces around the operator; negative numbers too.
SELECT -2, 1+2, 1.5*2, s1 <> 1, s1%2, -s1, NOT s1=1, s1>=2 AND s3<0 FROM t1 ORDER BY 1, 2, 3, 6;
SELECT 1+2*3, (1+2)*3, 2 DIV 1, 7 div 2, 5 == 5, 5 = 5, 1 <=> NULL;
-- Rule 5: the operator and function the user wrote are kept.
SELECT count(*), count(1), count(s2), count(DISTINCT s1), sum(s1) FILTER (WHERE s1 > 1) FROM t1;
SELECT s1 <> 1, s1 != 1, s2 || 'x', s1 BETWEEN 1 AND 2, s1 NOT BETWEEN 1 AND 2, s2 IS NULL, s2 IS NOT NULL FROM t1 ORDER BY 1, 2, 3;
SELECT s1 IN (1, 2), s1 NOT IN (1,2), s2 LIKE 'a%', s2 NOT LIKE 'a%', s1 IS DISTINCT FROM 2, s1 IS NOT DISTINCT FROM 2 FROM t1 WHERE s1 = 1;
SELECT CAST(s1 AS BIGINT), s1::string, try_cast(s2 AS INT), CAST(s3 AS DECIMAL(5, 1)) FROM t1 ORDER BY 1, 4;
SELECT CASE s1 WHEN 1 THEN 'one' ELSE 'many' END, CASE WHEN s1 > 1 THEN s2 END FROM t1 ORDER BY 1, 2;
SELECT position('b' IN s2), trim(BOTH 'a' FROM s2), trim(s2), upper(trim(s2)) FROM t1 WHERE s1 = 2;
SELECT pi() > 3, DATE '2020-01-02', INTERVAL 1 DAY, X'4142', NULL, true, 1.50, 1e3;
-- Rule 6: subqueries, lambdas and windows are shown, not placeholders.
SELECT (SELECT max(s1) FROM t1), EXISTS (SELECT 1 FROM t2 WHERE id > 3), 1 IN (SELECT id FROM t2);
SELECT transform(tags, x -> upper(x)), filter(tags, (x, i) -> i > 0) FROM t2 ORDER BY 1;
SELECT s1, rank() OVER (ORDER BY s1), sum(s1) OVER (PARTITION BY s2 ORDER BY s1 DESC), count(*) OVER w FROM t1 WINDOW w AS (PARTITION BY s1) ORDER BY s1, 2;
-- The issue's examples.
SELECT t2.id, AVG(s1), 'foo', -2, 1+2, s1 <> 1, nvl(s1,s1) FROM t1 JOIN t2 ON s1 = id GROUP BY id, s1;
SELECT pi() IS NOT NULL, (SELECT count(*) FROM t2), count(*) FROM t1;
-- White space and comments do not change a name; case of a column is kept as written.
SELECT s1+1, s1  +  1, s1 /* one */ + 1, S1 + 1, T1.S1 FROM t1 ORDER BY 1;
-- Explicit aliases win; * keeps the names; bare columns keep Spark's name.
SELECT s1 + 1 AS next, *, s2 FROM t1 ORDER BY 1;
-- Duplicate names are allowed, as in Spark, PostgreSQL and MySQL.
SELECT s1 + 1, s1+1 FROM t1 ORDER BY 1;
-- An outer query refers to an inner unaliased item by its canonical name.
SELECT `(s1 + 1)` * 10 FROM (SELECT s1 + 1 FROM t1) ORDER BY 1;
SELECT `count(*)` FROM (SELECT s2, count(*) FROM t1 GROUP BY s2) WHERE s2 = 'a';
WITH c AS (SELECT s1 * 2, upper(s2) FROM t1) SELECT `upper(s2)`, `(s1 * 2)` FROM c ORDER BY 2;
-- Views, set operations (names from the first branch), aggregates with HAVING, GROUP BY ALL.
CREATE TEMPORARY VIEW naming_v AS SELECT s1 * 2, lower(s2) FROM t1;
SELECT * FROM naming_v ORDER BY 1;
SELECT s1 + 1 FROM t1 UNION ALL SELECT id * 2 FROM t2 ORDER BY 1;
SELECT s2, count(*) FROM t1 GROUP BY ALL HAVING count(*) > 0 ORDER BY 1;
SELECT s1 % 2, max(s3) FROM t1 GROUP BY 1 ORDER BY 1;
-- Generators keep Spark's names (they may make several columns).
SELECT explode(tags) FROM t2 ORDER BY 1;
SELECT posexplode(tags), s1 + 1 FROM t2, t1 WHERE s1 = id ORDER BY 1, 2;
-- Lateral aliases still work; as in vanilla Spark (its native lateral aliases), a later item
-- can name an earlier unaliased one.
SELECT s1 + 1 AS x, x * 2, upper(s2) FROM t1 ORDER BY 1;
SELECT s1 + 1, `(s1 + 1)` * 10 FROM t1 ORDER BY 1;
-- CREATE TABLE AS SELECT keeps the names.
CREATE TABLE naming_ctas USING parquet AS SELECT s1 + 1, upper(s2), count(*) OVER () FROM t1;
SELECT * FROM naming_ctas ORDER BY 1;
DROP TABLE naming_ctas;
