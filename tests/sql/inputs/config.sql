-- Bad spark.colsem.* values fail the first query that follows, naming key, value and choices;
-- SET and RESET keep working so the value can be fixed.
SET spark.colsem.enabled=maybe;
SELECT s1 FROM t1;
SET spark.colsem.enabled=TRUE;
SELECT count(*) AS n FROM t1;
SET spark.colsem.singlePassResolver.policy=loud;
SELECT 1;
RESET spark.colsem.singlePassResolver.policy;
SELECT 1 AS one;
SET spark.colsem.lateralAlias.enabld=true;
SELECT 1;
RESET spark.colsem.lateralAlias.enabld;
SELECT 2 AS two;
