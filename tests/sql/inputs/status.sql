-- colsem_status(): SQL-visible proof that colsem is active, with every setting.
-- The four version keys differ per Spark line; the query after this one checks them line-agnostically.
-- Spark's single-pass resolver keys differ per line, and the environment's variables per machine: tests/test_single_pass.py checks them.
SELECT key, value FROM colsem_status() WHERE key NOT IN ('built_for_spark', 'built_for_scala', 'running_spark', 'running_scala', 'single_pass_resolver.environment') AND key NOT LIKE 'spark.sql.%';
SELECT max(value) FILTER (WHERE key = 'built_for_spark') = substring_index(version(), '.', 2) AS built_for_this_line, max(value) FILTER (WHERE key = 'running_spark') = substring_index(version(), ' ', 1) AS running_this_spark, max(value) FILTER (WHERE key = 'running_scala') LIKE concat(max(value) FILTER (WHERE key = 'built_for_scala'), '.%') AS same_scala FROM colsem_status();
SELECT value FROM colsem_status() WHERE key = 'active';
SET spark.colsem.enabled=false;
SELECT key, value FROM colsem_status() WHERE key LIKE 'spark.colsem.%';
SELECT * FROM colsem_status(1);
