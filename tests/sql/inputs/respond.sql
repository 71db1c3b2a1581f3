-- colsem_with_presence(TABLE(q)) (respond/PresenceTableFunction, which colsem.respond reads
-- through SQL): q's rows, then a boolean __colsem_present_<i> for each column i that holds a MAP
-- lookup, false where the key is absent (MISSING), true where present (a value or NULL).
CREATE TEMPORARY VIEW presence_docs AS SELECT * FROM VALUES (1, map('age', 30)), (2, map('age', CAST(NULL AS INT))), (3, map('name', 7)) AS presence_docs(id, m);
CREATE TEMPORARY VIEW presence_v AS SELECT id, m['age'] AS age FROM presence_docs;
SELECT * FROM colsem_with_presence(TABLE(presence_v));
-- Without a lookup the query's columns only.
SELECT * FROM colsem_with_presence(TABLE(SELECT id FROM presence_docs));
