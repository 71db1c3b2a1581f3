-- Naming dialects change names, never behaviour: each statement answers as in vanilla Spark, only
-- the names of unaliased items differ. Found running Spark's SQL test corpus under the dialects.
SET spark.colsem.naming.dialect=postgres;
-- A bare DEFAULT is SET VARIABLE's and INSERT's keyword, not a name to fold (was
-- DEFAULT_PLACEMENT_INVALID, and AMBIGUOUS_LATERAL_COLUMN_ALIAS for three of them).
DECLARE OR REPLACE VARIABLE peer_v1 STRING DEFAULT 'default1';
DECLARE OR REPLACE VARIABLE peer_v2 STRING DEFAULT 'default2';
SET VARIABLE peer_v1 = 'hello';
SET VARIABLE peer_v1 = DEFAULT;
SELECT peer_v1 AS v;
SET VARIABLE peer_v1 = 'hello', peer_v2 = 'world';
SET VARIABLE peer_v1 = DEFAULT, peer_v2 = DEFAULT;
SELECT peer_v1 AS v1, peer_v2 AS v2;
SET VARIABLE peer_v1 = 'hello';
SET VARIABLE (peer_v1) = (SELECT DEFAULT FROM VALUES(1) AS T(c1));
SELECT peer_v1 AS v;
CREATE TABLE peer_naming_t (a INT, b STRING DEFAULT 'dflt') USING parquet;
INSERT INTO peer_naming_t SELECT 1, DEFAULT;
SELECT * FROM peer_naming_t;
DROP TABLE peer_naming_t;
-- A dialect name is no lateral alias: `xm[1]` is named `xm`, and the later `xm` is still the
-- outer column (was INVALID_EXTRACT_BASE_FIELD_TYPE).
CREATE TEMPORARY VIEW peer_x AS SELECT map(1, 2) AS xm, 3 AS x2;
CREATE TEMPORARY VIEW peer_y AS SELECT map(1, 5) AS ym, 4 AS y2;
SELECT * FROM peer_x JOIN LATERAL (SELECT xm[1], xm[1] AS s1, xm[1] - ym[1] AS s2 FROM peer_y);
-- A GROUP BY name resolves as in vanilla Spark while the list waits for its dialect names: here the
-- outer column, which a grouped lateral subquery may not use (was UNRESOLVED_COLUMN).
SELECT * FROM peer_x JOIN LATERAL (SELECT xm[1], sum(ym[1]) FROM peer_y GROUP BY xm[1]);
SELECT ym[1], sum(y2) FROM peer_y GROUP BY ym[1];
-- A dialect name is no name a later item or GROUP BY can use either: as in vanilla Spark, `?column?`
-- is no column here.
SELECT s1 + 1, `?column?` FROM t1;
SELECT s1 + 1, count(*) FROM t1 GROUP BY `?column?`;
-- ...while an outer query, ORDER BY and HAVING see the dialect's names.
SELECT s1 + 1 FROM t1 ORDER BY `?column?`;
-- A bare column renamed is the same column: `COLNAME` and `colname` are one (was AMBIGUOUS_REFERENCE).
WITH c0 AS (SELECT 1 AS id, 'test' AS COLNAME), c1 AS (SELECT id, COLNAME, colname FROM c0),
     c2 AS (SELECT id, COLNAME, colname FROM c1)
SELECT * FROM c2;
SELECT DISTINCT S1 FROM t1 ORDER BY t1.S1;
-- A permanent view needs aliases where vanilla Spark needs them, no more: casts and extractions of
-- a column are named by Spark after the column (were CREATE_PERMANENT_VIEW_WITHOUT_ALIAS).
CREATE VIEW peer_naming_v1 AS SELECT s1, decimal(s3), CAST(s2 AS STRING COLLATE UTF8_LCASE) FROM t1;
SELECT * FROM peer_naming_v1 ORDER BY 1, 2;
DROP VIEW peer_naming_v1;
CREATE VIEW peer_naming_v2 AS SELECT id, tags[0] FROM t2 WHERE size(tags) > 0;
SELECT * FROM peer_naming_v2 ORDER BY 1;
DROP VIEW peer_naming_v2;
CREATE VIEW peer_naming_v3 AS SELECT s1 + 1 FROM t1;
SET spark.colsem.naming.dialect=canonical;
SELECT * FROM peer_x JOIN LATERAL (SELECT xm[1], xm[1] AS s1 FROM peer_y);
CREATE VIEW peer_naming_v1 AS SELECT s1, decimal(s3) FROM t1;
SELECT * FROM peer_naming_v1 ORDER BY 1, 2;
DROP VIEW peer_naming_v1;
SET VARIABLE peer_v1 = 'hello';
SET VARIABLE peer_v1 = DEFAULT;
SELECT peer_v1 AS v;
-- MariaDB and SQLite name an item by its text; a parenthesized first operand keeps its `(`.
SET spark.colsem.naming.dialect=mysql;
SELECT (s1 > 1) IS TRUE, (s1) IN (1, 2), s1 /* one */ + 1 FROM t1 ORDER BY 3;
SET spark.colsem.naming.dialect=sqlite;
SELECT (s1 > 1) IS TRUE, (s1) IN (1, 2), s1 /* one */ + 1 /* after */ FROM t1 ORDER BY 3;
-- A view's or table's columns keep Spark's names where the dialect's would repeat (`?column?`
-- twice: was COLUMN_ALREADY_EXISTS), when created and when read.
SET spark.colsem.naming.dialect=postgres;
CREATE OR REPLACE TEMPORARY VIEW peer_naming_v4 AS SELECT 1, 'a', s1 + 1 FROM t1;
SELECT * FROM peer_naming_v4 ORDER BY 1, 3;
CREATE TABLE peer_naming_t2 USING parquet AS SELECT 1, 'a', upper('b') EXCEPT SELECT 2, 'b', 'c';
SELECT * FROM peer_naming_t2;
DROP TABLE peer_naming_t2;
SELECT 1, 'a', upper('b');
-- A generator's names wait for the rest of the list, and the rest for the generator (was
-- UNSUPPORTED_EXPR_FOR_OPERATOR).
SELECT explode(array(1, 2)), count(*);
SELECT posexplode(array(5, 6)), count(*) OVER ();
-- A pipe AGGREGATE's GROUP BY ordinal waits for the list (was INTERNAL_ERROR); its items are
-- named as written, not as the pipe's wrapper.
VALUES (3, 4) AS tab(x, y) |> AGGREGATE sum(y) GROUP BY 1;
SET spark.colsem.naming.dialect=mysql;
VALUES (3, 4) AS tab(x, y) |> AGGREGATE sum(y) GROUP BY 1;
SET spark.colsem.naming.dialect=canonical;
VALUES (3, 4) AS tab(x, y) |> AGGREGATE sum(y) GROUP BY 1;
