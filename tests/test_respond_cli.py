"""``colsem sql``: each test runs the command in its own process (its own JVM) on real files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import subprocess_env
from golden import running_line

# Spark 3.5 has no VARIANT: there the bank documents are a MAP column (docs/versions.md).
HAS_VARIANT = running_line() != "3.5"

BANK = '{"account_number":1,"age":31}\n{"account_number":2,"age":null}\n{"account_number":3}\n'


@pytest.fixture(scope="module")
def files(spark, workdir: Path) -> Path:
    """bank.parquet (a VARIANT column; on 3.5 a MAP), and a warehouse folder with a table and a
    database."""
    folder = workdir / "cli"
    folder.mkdir(exist_ok=True)
    (folder / "bank.json").write_text(BANK)
    if HAS_VARIANT:
        documents = spark.read.option("singleVariantColumn", "doc").json(str(folder / "bank.json"))
    else:
        documents = spark.read.text(str(folder / "bank.json")).selectExpr(
            "from_json(value, 'map<string,bigint>') AS doc"
        )
    documents.write.mode("overwrite").parquet(str(folder / "bank.parquet"))
    spark.sql(
        "SELECT * FROM VALUES (1, 'north', 10.50BD), (2, 'south', NULL) AS t(id, region, amount)"
    ).write.mode("overwrite").parquet(str(folder / "warehouse" / "sales"))
    spark.sql("SELECT * FROM VALUES (1, 'Ann'), (2, 'Bo') AS t(id, name)").write.mode(
        "overwrite"
    ).parquet(str(folder / "warehouse" / "crm.db" / "customers"))
    return folder


def colsem_sql(args: list[str], cwd: Path, script: bool = False) -> subprocess.CompletedProcess:
    env = subprocess_env()
    command = (
        [str(Path(sys.executable).parent / "colsem")]
        if script
        else [sys.executable, "-m", "colsem"]
    )
    return subprocess.run(
        command + ["sql"] + args,
        cwd=str(cwd),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


BANK_ITEMS = (
    (
        "SELECT variant_get(doc, '$.age', 'int') AS age, "
        "variant_get(doc, '$.account_number', 'long') AS account_number"
    )
    if HAS_VARIANT
    else "SELECT CAST(doc['age'] AS INT) AS age, doc['account_number'] AS account_number"
)
BANK_SQL = BANK_ITEMS + " FROM bank ORDER BY 2"


def test_json_response_of_a_view_over_parquet(files: Path) -> None:
    proc = colsem_sql(
        [BANK_SQL, "--view", f"bank={files / 'bank.parquet'}", "--format", "json"],
        files,
        script=True,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (
        '{"schema":[{"name":"age","type":"integer"},{"name":"account_number","type":"long"}],'
        '"datarows":[{"age":31,"account_number":1},{"age":null,"account_number":2},'
        '{"account_number":3}],"total":3,"size":3,"status":200}\n'
    )


def test_sql_file_with_statements_over_a_warehouse_as_a_table(files: Path) -> None:
    sql = files / "report.sql"
    sql.write_text(
        "-- customers and their sales\n"
        "CREATE TEMP VIEW joined AS\n"
        "  SELECT c.name, s.region, s.amount FROM crm.customers c JOIN sales s ON s.id = c.id;\n"
        "SELECT name, region, amount, amount IS NULL AS unknown FROM joined ORDER BY name;\n"
    )
    proc = colsem_sql(["-f", str(sql), "--warehouse", str(files / "warehouse")], files)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (
        "+------+--------+--------+---------+\n"
        "| name | region | amount | unknown |\n"
        "+------+--------+--------+---------+\n"
        "| Ann  | north  | 10.50  | false   |\n"
        "| Bo   | south  | NULL   | true    |\n"
        "+------+--------+--------+---------+\n"
        "(2 rows)\n"
    )


def test_csv_and_jdbc_opensearch_types_with_progress(files: Path) -> None:
    proc = colsem_sql(
        [
            BANK_ITEMS + ", doc FROM bank ORDER BY 2",
            "--view",
            f"bank={files / 'bank.parquet'}",
            "--format",
            "csv",
        ],
        files,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (
        "age,account_number,doc\n"
        '31,1,"{""account_number"":1,""age"":31}"\n'
        ',2,"{""account_number"":2,""age"":null}"\n'
        ',3,"{""account_number"":3}"\n'
    )
    slow = (
        "SELECT count(*) AS n, CAST(NULL AS STRING) AS note FROM range(0, 4, 1, 4) "
        "WHERE coalesce(java_method('java.lang.Thread', 'sleep', 600L), '') IS NOT NULL"
    )
    proc = colsem_sql(
        [
            slow,
            "--format",
            "jdbc",
            "--types",
            "opensearch",
            "--progress",
            "always",
            "--master",
            "local[1]",
        ],
        files,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == (
        '{"schema":[{"name":"n","type":"long"},{"name":"note","type":"keyword"}],'
        '"datarows":[[4,null]],"total":1,"size":1,"status":200}\n'
    )
    assert "[stage " in proc.stderr and "/4 tasks" in proc.stderr


def test_errors_exit_non_zero_with_the_spark_error(files: Path) -> None:
    proc = colsem_sql(["SELECT nope FROM range(1)", "--format", "json"], files)
    assert proc.returncode == 1
    assert proc.stdout == ""
    what = (
        "A column, variable, or function parameter"
        if HAS_VARIANT
        else "A column or function parameter"
    )
    assert (
        f"error: [UNRESOLVED_COLUMN.WITH_SUGGESTION] {what} with name `nope` cannot be resolved."
        in proc.stderr
    )
    proc = colsem_sql(["--format", "json"], files)
    assert proc.returncode == 2
    assert "give the SQL text or -f FILE" in proc.stderr


def test_statement_splitting() -> None:
    from colsem._cli_sql import split_statements

    assert split_statements("SELECT ';' AS s;\n-- only a comment;\nSELECT 2;  \n\n") == [
        "SELECT ';' AS s",
        "SELECT 2",
    ]
