-- The cases of IoTDB's lateral column alias design (apache/iotdb#17797, part 2), the semantics colsem
-- follows, as that design states them, over its example table; colsem's default settings.
CREATE TEMPORARY VIEW table1 AS SELECT * FROM VALUES (1, 10, 1.5), (2, 20, 2.5), (2, 30, NULL) AS table1(s1, s2, s3);
-- 1. A later item reads an earlier item's alias: as if written s1 + 1.
SELECT s1 AS x, x + 1 AS y FROM table1 ORDER BY y;
-- 2. Left to right through a chain: s1, s1 + 1, (s1 + 1) * 2.
SELECT s1 AS x, x + 1 AS y, y * 2 AS z FROM table1 ORDER BY z;
-- 3. No forward reference.
SELECT y + 1 AS x, s1 AS y FROM table1;
-- 4. An item does not see its own alias.
SELECT x + 1 AS x FROM table1;
-- 5. Only an unqualified name can be an alias: table1.x and t.x are columns only.
SELECT s1 AS x, table1.x FROM table1;
SELECT s1 AS x, t.x FROM table1 AS t;
-- 6. A column of the FROM input wins over an alias of the same name (s2 is table1.s2).
SELECT s1 AS s2, s2 + 1 AS y FROM table1 ORDER BY y;
-- 7. Two earlier aliases of one name, and no such column: ambiguous.
SELECT s1 AS x, s2 AS x, x + 1 FROM table1;
-- 8. ... unless the FROM input has that column, which wins.
SELECT s1 AS s3, s2 AS s3, s3 + 1 AS y FROM table1 ORDER BY y;
-- 9. Only explicit aliases count, says the design; Spark's native support also reads an unaliased
-- item's generated name (backquoted), and colsem keeps what vanilla Spark answers as it is.
SELECT s1 + 1, `(s1 + 1)` * 2 FROM table1;
-- 10. A type name is no alias reference.
SELECT s2 AS int, CAST(s1 AS int) AS c FROM table1 ORDER BY c;
-- 11. In a window's ORDER BY.
SELECT s1 AS x, row_number() OVER (ORDER BY x, s2) AS rn FROM table1 ORDER BY rn;
-- 12. In a window's PARTITION BY.
SELECT s1 AS x, avg(s2) OVER (PARTITION BY x) AS a FROM table1 ORDER BY x, a;
-- 13. GROUP BY an alias of an item that uses an alias: grouped by the rewritten expression.
SELECT s1 AS x, x * 2 AS y, count(*) AS c FROM table1 GROUP BY x, y ORDER BY y;
-- 14. ORDER BY keeps its own output-alias precedence, also for an item that uses an alias.
SELECT s1 AS x, x + 1 AS y FROM table1 ORDER BY y DESC;
-- 15. GROUP BY ordinals unchanged.
SELECT s1 AS x, x * 10 AS y, count(*) AS c FROM table1 GROUP BY 1 ORDER BY 1;
-- 16. Non-goal: WHERE resolves through the FROM input only.
SELECT s1 AS x FROM table1 WHERE x > 1;
-- 17. Non-goal: an alias does not enter a subquery's scope.
SELECT s1 AS x, (SELECT x FROM table1) AS y FROM table1;
-- The design's other non-goal, HAVING through the input only, is not colsem's to change: vanilla
-- Spark reads select aliases in HAVING, and colsem leaves what vanilla accepts as it is.
SELECT s1, avg(s2) AS a FROM table1 GROUP BY s1 HAVING a > 15 ORDER BY s1;
