"""The naming corpus: unaliased SELECT items, each run as ``SELECT <item> FROM t`` on real SQLite,
PostgreSQL and MariaDB (record_engine_names.py) and on Spark with colsem (test_naming_engines.py).

``t`` holds the same rows everywhere (TABLE_ROWS); its columns are declared in lower case, so the
mixed-case items show how each system names a column written in another case."""

from __future__ import annotations

from typing import List, Tuple

COLUMNS: List[Tuple[str, str]] = [("id", "INT"), ("qty", "INT"), ("name", "VARCHAR(20)"),
                                  ("price", "DECIMAL(10,2)")]
TABLE_ROWS = [(1, 10, "apple", "2.50"), (2, 20, "banana", None), (3, None, "cherry", "4.00")]

ITEMS: List[str] = [
    # columns, qualifiers, case
    "id", "t.id", "ID", "t.ID", "Name", "(id)", "((qty))", "`id`", '"id"',
    # literals
    "1", "-2", "- 2", "+3", "1.50", "0.5", "1e3", "1E-2", "'foo'", "'it''s'", '"bar"', "''",
    "NULL", "null", "TRUE", "false", "X'4142'", "DATE '2020-01-02'", "TIMESTAMP '2020-01-02 03:04:05'",
    # arithmetic
    "id+1", "id + 1", "id  +  1", "id - qty", "id * 2", "qty / 4", "qty % 3", "qty DIV 3", "-id",
    "- id", "+id", "(id + 1) * 2", "id + qty * 2", "((id))+1", "id+-1", "~id", "id & 3", "id | 4",
    "(id + 1)", "( id*2 )", "(abs(id))", "((id - 1))",
    "id ^ 1",
    # comparison and logic
    "id = 1", "id == 1", "id <> 1", "id != 1", "id < 2", "id <= 2", "id > 2", "id >= 2",
    "id <=> qty", "NOT id = 1", "NOT (id = 1)", "id = 1 AND qty > 5", "id = 1 OR qty > 5",
    "id = 1 and qty > 5", "id IS NULL", "qty IS NOT NULL", "id IS DISTINCT FROM qty",
    "id IS NOT DISTINCT FROM qty", "id BETWEEN 1 AND 2", "id NOT BETWEEN 1 AND 2",
    "id IN (1, 2)", "id NOT IN (1,2)", "name LIKE 'a%'", "name NOT LIKE 'a%'", "name LIKE 'a!%' ESCAPE '!'",
    "name || 'x'", "name || '-' || id",
    # functions
    "abs(id)", "ABS(id)", "Abs( id )", "abs(-id)", "abs(id * qty)", "coalesce(qty, 0)", "COALESCE(qty,0)",
    "nullif(id, 1)", "greatest(id, qty)", "least(id, 2)", "lower(name)", "UPPER(name)", "length(name)",
    "concat(name, 'x')", "concat(name,'-',id)", "substr(name, 1, 2)", "substring(name, 2)",
    "substring(name from 1 for 2)", "replace(name, 'a', 'b')", "trim(name)", "TRIM(BOTH 'a' FROM name)",
    "trim(leading 'a' from name)", "position('a' in name)", "round(price, 1)", "ROUND(price)",
    "floor(price)", "ceil(price)", "mod(qty, 3)", "power(id, 2)", "sqrt(qty)", "upper(lower(name))",
    "abs(abs(id))", "current_date", "CURRENT_DATE", "current_date()", "extract(year from DATE '2020-01-02')",
    "if(id = 1, 'one', 'other')", "ifnull(qty, 0)", "nvl(qty, 0)", "md5(name)", "reverse(name)",
    # casts
    "CAST(id AS BIGINT)", "cast(id as int)", "CAST(id AS DECIMAL(10,2))", "CAST(price AS INT)",
    "CAST('1' AS INT)", "CAST(id + 1 AS BIGINT)", "CAST(name AS VARCHAR(10))", "CAST(id AS CHAR(3))",
    "CAST(id AS STRING)", "CAST(qty AS DOUBLE)", "CAST(1.5 AS REAL)", "id::int", "(id + 1)::bigint",
    "'12'::int", "CAST(price AS FLOAT)", "CAST('2020-01-02' AS DATE)", "CAST(id AS BOOLEAN)",
    # CASE
    "CASE WHEN id = 1 THEN 'one' ELSE 'other' END", "CASE id WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
    "case when id > 1 then qty end", "CASE WHEN id = 1 THEN 'one' ELSE name END",
    "CASE WHEN id = 1 THEN 1 ELSE abs(qty) END", "CASE id WHEN 1 THEN 'one' ELSE 'x' END",
    # aggregates
    "count(*)", "COUNT(*)", "count(1)", "count(qty)", "count(DISTINCT qty)", "count(distinct name)",
    "sum(qty)", "SUM(qty)", "avg(price)", "min(name)", "max(id)", "sum(qty) FILTER (WHERE id > 1)",
    "count(*) FILTER (WHERE qty IS NULL)", "sum(DISTINCT qty)", "max(id) - min(id)", "sum(qty * 2)",
    # windows
    "rank() OVER (ORDER BY id)", "row_number() OVER (ORDER BY id DESC)",
    "sum(qty) OVER (PARTITION BY name ORDER BY id)", "ROW_NUMBER() over (partition by name order by id)",
    "count(*) OVER ()", "lag(id) OVER (ORDER BY id)", "first_value(name) OVER (ORDER BY id)",
    "avg(qty) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
    # subqueries
    "(SELECT max(id) FROM t)", "(select min(qty) from t)", "(SELECT 1)", "(SELECT count(*) FROM t) + 1",
    "EXISTS (SELECT 1 FROM t WHERE qty > 15)", "id IN (SELECT qty FROM t)",
    "id NOT IN (SELECT id FROM t WHERE id > 2)", "(SELECT name FROM t WHERE id = 2)",
    # white space and comments
    "id+ 1", "id +1", "  id   *   2  ", "id\n+\n1", "id\t+ 1", "id /* plus */ + 1", "abs( /* x */ id)",
    "id -- trailing\n + 1", "lower( name )", "count( * )", "CAST( id  AS  BIGINT )",
    "id\r\n+ 1", "(id /* c */ + 1)", "id + /* c */ 1 /* after */", "abs(\n  id\n)",
    # a parenthesized operand first (its position excludes the parenthesis)
    "(id > 1) IS TRUE", "(id > 1) IS NOT FALSE", "(qty) IS NULL", "(id + 1) BETWEEN 1 AND 3",
    "(id) IN (1, 2)", "(name) LIKE 'a%'",
    # mixed case
    "ID + 1", "Id * QTY", "ABS(ID)", "Lower(NAME)", "COUNT(ID)", "t.ID + T.qty", "MAX(Id)",
    "CASE WHEN ID = 1 THEN NAME END",
]
