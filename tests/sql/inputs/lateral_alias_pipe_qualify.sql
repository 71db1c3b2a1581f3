-- Lateral aliases in Spark's pipe syntax (|> SELECT, |> EXTEND: Spark 4.0 on) and in QUALIFY
-- (Spark 4.2 on; QUALIFY reads the list's window aliases natively). Lines without the syntax record
-- their parse errors (tests/sql/results/<line>/).
CREATE TEMPORARY VIEW t AS SELECT * FROM VALUES (1, 10), (2, 20), (3, 30), (3, 40) AS t(k, v);
-- |> SELECT: a later item reads an earlier item's alias.
FROM t |> SELECT k AS a, a + v AS b |> ORDER BY b;
-- |> EXTEND: the new items read each other, the input's columns stay.
FROM t |> EXTEND k * 2 AS d, d + 1 AS e |> ORDER BY e, v;
-- A window over an alias of the same |> SELECT (native Spark refuses a lateral alias in a window).
FROM t |> SELECT k AS a, sum(v) OVER (PARTITION BY a) AS s |> ORDER BY a, s;
-- QUALIFY over the window alias of a list whose window reads a lateral alias.
SELECT k AS a, v, rank() OVER (PARTITION BY a ORDER BY v DESC) AS r FROM t QUALIFY r = 1 ORDER BY a;
-- QUALIFY over an item that reads a window's alias.
SELECT k, v, sum(v) OVER (PARTITION BY k) AS s, v * 100 / s AS pct FROM t QUALIFY pct < 100 ORDER BY v;
-- |> AGGREGATE: an item that reads an aggregate through an alias has an aggregate function, as its
-- hand-inlined form (the statement after it) has; named and typed as that form.
FROM t |> AGGREGATE sum(k) AS s, s * 2 AS s2 GROUP BY v |> ORDER BY v;
FROM t |> AGGREGATE sum(k) AS s, sum(k) * 2 AS s2 GROUP BY v |> ORDER BY v;
FROM t |> AGGREGATE sum(k) AS s, count(*) AS c, s / c AS avgk, avgk + 1 AS a1 GROUP BY k |> ORDER BY k;
FROM t |> AGGREGATE sum(k) AS s, sum(k) + v AS x GROUP BY v |> ORDER BY v;
FROM t |> AGGREGATE sum(k) AS s, s + v AS x GROUP BY v |> ORDER BY v;
FROM t |> AGGREGATE sum(k) AS s, s * 2 AS s2 |> WHERE s2 > 4;
-- An unaliased item is named as in the SELECT form (SELECT v, sum(k) AS s, s * 2 ... GROUP BY v).
FROM t |> AGGREGATE sum(k) AS s, s * 2 GROUP BY v |> ORDER BY v;
-- A GROUP BY alias (g) beside an aggregate's alias, and inside an aggregate function's argument.
FROM t |> AGGREGATE sum(k) AS s, g + s AS x GROUP BY v AS g |> ORDER BY g;
FROM t |> AGGREGATE sum(g * k) AS s GROUP BY v AS g |> ORDER BY g;
-- No aggregate function even once the alias is inlined (v + 1): Spark's pipe error, as vanilla.
FROM t |> AGGREGATE sum(k) AS s, g + 1 AS x GROUP BY v AS g;
-- An aggregate over an aggregate's alias, a forward reference: the errors of the SELECT form.
FROM t |> AGGREGATE sum(k) AS s, max(s) AS m GROUP BY v;
FROM t |> AGGREGATE s2 + 1 AS x, sum(k) AS s2 GROUP BY v;
