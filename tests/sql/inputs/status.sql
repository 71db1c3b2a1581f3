-- colsem_status(): SQL-visible proof that colsem is active, with every setting.
SELECT key, value FROM colsem_status();
SELECT value FROM colsem_status() WHERE key = 'active';
SET spark.colsem.enabled=false;
SELECT key, value FROM colsem_status() WHERE key LIKE 'spark.colsem.%';
SELECT * FROM colsem_status(1);
