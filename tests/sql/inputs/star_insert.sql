-- Data safety: with hidden columns, INSERT ... SELECT * carries them through (the stars of an
-- INSERT statement expand every column), so no hidden value becomes NULL or DEFAULT.
DROP TABLE IF EXISTS star_log;
DROP TABLE IF EXISTS star_log_copy;
DROP TABLE IF EXISTS star_log_ctas;
DROP TABLE IF EXISTS star_log_parts;
CREATE TABLE star_log (id INT, msg STRING, _seq BIGINT DEFAULT 42, _src STRING) USING parquet TBLPROPERTIES ('colsem.hidden_columns' = '_seq,_src');
INSERT INTO star_log VALUES (1, 'a', 10, 's1'), (2, 'b', 20, 's2');
SET spark.colsem.star.exclude = TAGGED;
SELECT * FROM star_log ORDER BY id;
-- Positional round trip.
INSERT INTO star_log SELECT * FROM star_log;
-- BY NAME round trip (vanilla Spark would fill _seq with 42 and _src with NULL if * dropped them).
INSERT INTO star_log BY NAME SELECT * FROM star_log WHERE id = 1;
-- A CTE before the INSERT counts as part of it.
WITH src AS (SELECT * FROM star_log WHERE id = 2) INSERT INTO star_log BY NAME SELECT * FROM src;
-- Every row still has its hidden values: nothing NULL, nothing defaulted.
SELECT id, msg, _seq, _src FROM star_log ORDER BY id, _seq;
SELECT count(*) AS rows_with_lost_values FROM star_log WHERE _seq IS NULL OR _src IS NULL OR _seq = 42;
-- INSERT OVERWRITE from a copy keeps them as well.
CREATE TABLE star_log_copy (id INT, msg STRING, _seq BIGINT, _src STRING) USING parquet TBLPROPERTIES ('colsem.hidden_columns' = '_seq,_src');
INSERT OVERWRITE star_log_copy SELECT * FROM star_log;
SELECT id, msg, _seq, _src FROM star_log_copy ORDER BY id, _seq;
-- * EXCEPT in an INSERT is the explicit way to leave columns out (here: Spark's own arity error).
INSERT INTO star_log SELECT * EXCEPT (_src) FROM star_log;
-- A query that went through a * elsewhere (here a temp view made while hiding) lacks the hidden
-- columns: INSERT BY NAME fails naming them instead of writing DEFAULT/NULL...
CREATE OR REPLACE TEMPORARY VIEW star_log_visible AS SELECT * FROM star_log;
INSERT INTO star_log BY NAME SELECT * FROM star_log_visible;
-- ...and an explicit column list is how to use the defaults on purpose.
INSERT INTO star_log (id, msg) SELECT * FROM star_log_visible WHERE id = 1 LIMIT 1;
SELECT id, msg, _seq, _src FROM star_log WHERE _src IS NULL;
-- MERGE's UPDATE SET * and INSERT * take every column from the source: a source that went through
-- a * lacks the hidden ones, and the MERGE fails naming them (Delta and Iceberg: test_table_formats.py)...
MERGE INTO star_log AS t USING (SELECT * FROM star_log_copy) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;
MERGE INTO star_log AS t USING star_log_visible AS s ON t.id = s.id + 10 WHEN NOT MATCHED THEN INSERT *;
-- ...while a source that names them, or explicit assignments, reach Spark as before (which runs MERGE
-- on DSv2 tables only, and refuses it for this parquet table).
MERGE INTO star_log AS t USING (SELECT *, _seq, _src FROM star_log_copy) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;
MERGE INTO star_log AS t USING (SELECT * FROM star_log_copy) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET msg = s.msg;
-- Partitioned target, hidden partition column.
CREATE TABLE star_log_parts (id INT, msg STRING, _day STRING) USING parquet PARTITIONED BY (_day) TBLPROPERTIES ('colsem.hidden_columns' = '_day');
INSERT INTO star_log_parts VALUES (1, 'a', '2026-01-01'), (2, 'b', '2026-01-02');
SELECT * FROM star_log_parts ORDER BY id;
INSERT INTO star_log_parts SELECT * FROM star_log_parts;
SELECT id, msg, _day FROM star_log_parts ORDER BY id, _day;
-- CREATE TABLE AS SELECT * copies what * shows: the user asked for the visible columns.
CREATE TABLE star_log_ctas USING parquet AS SELECT * FROM star_log WHERE id = 1;
DESCRIBE star_log_ctas;
SELECT * FROM star_log_ctas ORDER BY id;
