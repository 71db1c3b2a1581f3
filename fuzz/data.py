"""The fuzzer's tables: fixed, small, on disk as parquet. One definition feeds the Spark workers
(CREATE TABLE ... AS SELECT over VALUES), DuckDB (reads the same parquet files) and the golden
regression file (the same statements)."""

from __future__ import annotations

from collections.abc import Sequence

# (column, Spark type). Names collide on purpose: id/k across every table, x in fa and fc, s in fa
# and fb, and x, k, s, v, d, w are also alias names the generator uses.
Column = tuple[str, str]

SCHEMAS: dict[str, list[Column]] = {
    "fa": [
        ("id", "INT"),
        ("k", "INT"),
        ("x", "INT"),
        ("s", "STRING"),
        ("d", "DOUBLE"),
        ("dt", "DATE"),
        ("arr", "ARRAY<INT>"),
        ("st", "STRUCT<a: INT, b: STRING>"),
        ("_ingest", "INT"),
    ],
    "fb": [
        ("id", "INT"),
        ("k", "INT"),
        ("y", "INT"),
        ("s", "STRING"),
        ("name", "STRING"),
        ("v", "DOUBLE"),
        ("arr", "ARRAY<INT>"),
    ],
    "fc": [("id", "INT"), ("k", "INT"), ("x", "INT"), ("w", "STRING"), ("dt", "DATE")],
}

# Rows as SQL literals. Doubles are multiples of 0.25 so sums are exact in any order.
ROWS: dict[str, list[Sequence[str]]] = {
    "fa": [
        (
            "1",
            "1",
            "10",
            "'a'",
            "1.5",
            "DATE '2024-01-01'",
            "array(1, 2)",
            "named_struct('a', 1, 'b', 'p')",
            "100",
        ),
        (
            "2",
            "2",
            "NULL",
            "'b'",
            "NULL",
            "DATE '2024-02-29'",
            "array()",
            "named_struct('a', 2, 'b', NULL)",
            "101",
        ),
        ("3", "NULL", "30", "NULL", "-2.25", "NULL", "NULL", "NULL", "102"),
        (
            "4",
            "3",
            "-1",
            "'c'",
            "0.0",
            "DATE '2023-12-31'",
            "array(3, NULL)",
            "named_struct('a', NULL, 'b', 'q')",
            "103",
        ),
        (
            "5",
            "3",
            "0",
            "'a'",
            "4.75",
            "DATE '2024-01-01'",
            "array(5)",
            "named_struct('a', 5, 'b', 'p')",
            "104",
        ),
        (
            "6",
            "-2",
            "7",
            "'B'",
            "-0.5",
            "DATE '2024-03-15'",
            "array(2, 2, 2)",
            "named_struct('a', 6, 'b', 'r')",
            "105",
        ),
        ("7", "0", "NULL", "''", "8.0", "DATE '2024-01-02'", "array(0)", "NULL", "106"),
        (
            "8",
            "1",
            "3",
            "'d'",
            "NULL",
            "DATE '2024-02-01'",
            "array(1)",
            "named_struct('a', 8, 'b', 'p')",
            "107",
        ),
    ],
    "fb": [
        ("1", "1", "5", "'a'", "'one'", "2.5", "array(1)"),
        ("2", "3", "NULL", "'c'", "'two'", "NULL", "array(2, 3)"),
        ("3", "3", "6", "NULL", "NULL", "-1.25", "NULL"),
        ("4", "NULL", "7", "'b'", "'four'", "0.75", "array()"),
        ("5", "9", "-3", "'a'", "'five'", "10.0", "array(9, 9)"),
        ("6", "2", "0", "'e'", "'six'", "0.25", "array(NULL)"),
        ("7", "1", "2", "'A'", "'seven'", "3.0", "array(1, 2, 3)"),
    ],
    "fc": [
        ("1", "1", "4", "'x'", "DATE '2024-01-01'"),
        ("2", "2", "NULL", "'y'", "NULL"),
        ("3", "NULL", "8", "NULL", "DATE '2024-02-29'"),
        ("4", "4", "1", "'x'", "DATE '2022-06-30'"),
        ("5", "3", "2", "'zz'", "DATE '2024-01-01'"),
        ("6", "0", "-5", "'y'", "DATE '2023-12-31'"),
    ],
}

# What colsem's star strategies hide in the star oracle: fa.x and fb.name by table property
# (TAGGED), every column starting with '_' by pattern (PATTERN).
HIDDEN_PROPERTY = {"fa": "x", "fb": "name"}
STAR_PATTERN = "_.*"


def select_sql(table: str) -> str:
    """SELECT over VALUES with the table's exact column types."""
    columns = SCHEMAS[table]
    values = ",\n  ".join("(" + ", ".join(row) + ")" for row in ROWS[table])
    names = ", ".join(f"c{i}" for i in range(len(columns)))
    casts = ", ".join(f"CAST(c{i} AS {t}) AS {n}" for i, (n, t) in enumerate(columns))
    return f"SELECT {casts} FROM VALUES\n  {values}\n  AS v({names})"


def create_sql(table: str, properties: bool = True) -> str:
    """A parquet table (every column nullable, as file tables are) in the current database."""
    props = ""
    if properties and table in HIDDEN_PROPERTY:
        props = f" TBLPROPERTIES ('colsem.hidden_columns' = '{HIDDEN_PROPERTY[table]}')"
    return f"CREATE TABLE {table} USING parquet{props} AS {select_sql(table)}"


def column_types(table: str) -> list[Column]:
    return [(n, t.replace(" ", "").lower()) for n, t in SCHEMAS[table]]
