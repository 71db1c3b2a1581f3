-- SELECT * expansion strategies (spark.colsem.star.exclude). Parquet tables in the test
-- warehouse; each statement's result is checked exactly.
DROP VIEW IF EXISTS star_ev_view;
DROP VIEW IF EXISTS star_ev_view_props;
DROP TABLE IF EXISTS star_ev;
DROP TABLE IF EXISTS star_cdc;
CREATE TABLE star_ev (id INT, name STRING, _ingested_at TIMESTAMP, _row_id BIGINT, payload STRUCT<a: INT, b: STRING>) USING parquet TBLPROPERTIES ('colsem.hidden_columns' = '_ingested_at, _row_id');
INSERT INTO star_ev VALUES (1, 'a', TIMESTAMP '2026-01-01 00:00:00', 100, named_struct('a', 1, 'b', 'x')), (2, 'b', TIMESTAMP '2026-01-02 00:00:00', 200, named_struct('a', 2, 'b', 'y'));
CREATE TABLE star_cdc (id INT, note STRING, _change_type STRING, _hoodie_commit_time STRING) USING parquet;
INSERT INTO star_cdc VALUES (1, 'one', 'insert', 'c1'), (3, 'three', 'update_postimage', 'c2');
-- Default: vanilla *.
SELECT * FROM star_ev ORDER BY id;
-- TAGGED: the table property hides _ingested_at and _row_id; a struct stays one column.
SET spark.colsem.star.exclude = TAGGED;
SELECT * FROM star_ev ORDER BY id;
SELECT star_ev.* FROM star_ev ORDER BY id;
SELECT e.* FROM star_ev e ORDER BY id;
-- Hidden columns stay selectable by name: explicit first, then the rest once.
SELECT _row_id, * FROM star_ev ORDER BY id;
SELECT *, _ingested_at FROM star_ev ORDER BY id;
SELECT payload.* FROM star_ev ORDER BY a;
-- and usable in WHERE / ORDER BY.
SELECT * FROM star_ev WHERE _row_id > 150;
SELECT * FROM star_ev ORDER BY _row_id DESC;
-- Composes with * EXCEPT (a hidden column may be named there too).
SELECT * EXCEPT (name) FROM star_ev ORDER BY id;
SELECT * EXCEPT (_row_id, payload) FROM star_ev ORDER BY id;
-- Only columns straight from a table are hidden: a subquery's explicit choice stays.
SELECT * FROM (SELECT _row_id, * FROM star_ev) ORDER BY id;
SELECT * FROM (SELECT * FROM star_ev) s ORDER BY id;
WITH c AS (SELECT _row_id, id FROM star_ev) SELECT * FROM c ORDER BY id;
-- Joins: *, a.*, b.*, USING and NATURAL.
SELECT * FROM star_ev e JOIN star_cdc c ON e.id = c.id;
SELECT e.*, c.* FROM star_ev e JOIN star_cdc c ON e.id = c.id;
SELECT c.*, e.* FROM star_ev e LEFT JOIN star_cdc c ON e.id = c.id ORDER BY e.id;
SELECT * FROM star_ev JOIN star_cdc USING (id);
SELECT * FROM star_ev FULL OUTER JOIN star_cdc USING (id) ORDER BY id;
SELECT * FROM star_ev NATURAL JOIN star_cdc;
-- Aggregates and DISTINCT over the visible columns.
SELECT DISTINCT * FROM star_ev ORDER BY id;
SELECT count(*) FROM star_ev;
-- With lateral aliases, and as an aggregate's list (every visible column grouped).
SELECT *, id * 10 AS x, x + 1 AS y FROM star_ev ORDER BY id;
SELECT * FROM star_ev GROUP BY id, name, payload ORDER BY id;
-- Stars inside function calls expand every column, as in vanilla Spark.
SELECT to_json(struct(*)) FROM star_ev WHERE id = 1;
-- PATTERN alone.
SET spark.colsem.star.exclude = PATTERN;
SET spark.colsem.star.excludePattern = _hoodie_.*|_change_type;
SELECT * FROM star_cdc ORDER BY id;
SELECT * FROM star_ev ORDER BY id;
-- Both strategies.
SET spark.colsem.star.exclude = tagged, pattern;
SELECT * FROM star_ev e JOIN star_cdc c ON e.id = c.id;
SELECT * FROM colsem_columns('star_ev');
SELECT * FROM colsem_columns('star_cdc');
-- DESCRIBE lists every column.
DESCRIBE star_ev;
-- A pattern matches the whole name; (?i) ignores case.
SET spark.colsem.star.excludePattern = (?i)_CHANGE.*;
SELECT * FROM star_cdc ORDER BY id;
SET spark.colsem.star.excludePattern = change;
SELECT * FROM star_cdc ORDER BY id;
-- Views keep the columns they were created with; their own property hides their columns.
SET spark.colsem.star.exclude = TAGGED;
CREATE VIEW star_ev_view AS SELECT * FROM star_ev;
SELECT * FROM star_ev_view ORDER BY id;
RESET spark.colsem.star.exclude;
SELECT * FROM star_ev_view ORDER BY id;
CREATE VIEW star_ev_view_props TBLPROPERTIES ('colsem.hidden_columns' = 'name') AS SELECT * FROM star_ev;
SELECT * FROM star_ev_view_props ORDER BY id;
SET spark.colsem.star.exclude = TAGGED;
SELECT * FROM star_ev_view_props ORDER BY id;
SELECT name, * FROM star_ev_view_props ORDER BY id;
-- Temp views (SQL) keep their columns the same way.
CREATE TEMPORARY VIEW star_tmp AS SELECT * FROM star_ev;
SELECT * FROM star_tmp ORDER BY id;
RESET spark.colsem.star.exclude;
SELECT * FROM star_tmp ORDER BY id;
-- Bad settings and properties: clear errors.
SET spark.colsem.star.exclude = TAGGED, SYSTEM;
SELECT * FROM star_ev;
SET spark.colsem.star.exclude = PATTERN;
RESET spark.colsem.star.excludePattern;
SELECT * FROM star_cdc;
SET spark.colsem.star.excludePattern = _hoodie_[;
SELECT * FROM star_cdc;
RESET spark.colsem.star.excludePattern;
SET spark.colsem.star.exclude = TAGGED;
ALTER TABLE star_cdc SET TBLPROPERTIES ('colsem.hidden_columns' = '_change_type, _commit');
SELECT * FROM star_cdc;
SELECT * FROM colsem_columns('star_cdc');
SELECT * FROM colsem_columns();
-- Off switch: colsem disabled means vanilla *.
ALTER TABLE star_cdc SET TBLPROPERTIES ('colsem.hidden_columns' = '_change_type');
SELECT * FROM star_cdc ORDER BY id;
SET spark.colsem.enabled = false;
SELECT * FROM star_cdc ORDER BY id;
