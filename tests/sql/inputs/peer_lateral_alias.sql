-- Lateral column aliases where Spark's own SQL test corpus (make peer) found colsem answering
-- differently from vanilla Spark with default settings. tests/test_lateral_alias.py also runs each
-- statement with Spark's native support and checks that colsem's answer is the same.
-- A parameterless function wins over an earlier alias of the same name, as in Spark's golden files.
SELECT 'abc' AS current_user, current_user = current_user() AS same;
SELECT 'abc' AS user, user = current_user() AS same;
SELECT 'abc' AS current_date, current_date = current_date() AS same;
SELECT 'abc' AS current_timestamp, typeof(current_timestamp) AS t;
SELECT 'abc' AS current_date, current_date = current_date() AS same, count(*) AS n FROM t1;
SELECT 1 AS grouping__id, grouping__id;
-- ...but a FROM column still comes first, and names that are no such function stay aliases.
SELECT 'abc' AS x, user FROM VALUES (7) AS t(user);
SELECT 'abc' AS current_database, current_database || '!' AS y;
-- A generator's alias is a column of the whole list: an earlier item may read it.
SELECT col + 1 AS col2, explode(array(1, 2, 3)) AS col;
SELECT c * 10 AS x, explode(array(1, 2)) AS c, c + 1 AS y ORDER BY x;
-- Two earlier aliases of one name: Spark's error class, also when one is a generator.
SELECT 1 AS a, 2 AS a, a;
SELECT 1 AS a, explode(array(1, 2)) AS a, a;
SELECT explode(array(1, 2)) AS col, explode(array(3, 4)) AS col, col;
