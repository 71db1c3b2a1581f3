"""`make demo`: what colsem does in this version, run against a real local Spark session.

Run it with the project's venv: `.venv/bin/python docs/demo.py` (make demo does that)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import colsem
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession


def section(title: str) -> None:
    print(f"\n=== {title} " + "=" * max(0, 70 - len(title)))


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="colsem-demo-"))
    info = colsem.build_info()
    section("1. The jar inside the package")
    print(f"jar:               {colsem.jar_path()}")
    print(f"maven coordinate:  {colsem.maven_coordinate()}")
    print(
        f"built for:         Spark {info.spark_line}, Scala {info.scala_binary} (pyspark {info.pyspark_supported})"
    )

    section("2. Into a session: colsem.configure(SparkSession.builder)")
    builder = (
        SparkSession.builder.master("local[1]")
        .appName("colsem-demo")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.warehouse.dir", str(workdir / "warehouse"))
    )
    spark = colsem.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    print(f"spark.sql.extensions = {spark.conf.get('spark.sql.extensions')}")
    print(
        "Other ways in: a plain SparkSession.builder.getOrCreate() after pip install (automatic),"
    )
    print(f"  spark.jars={colsem.jar_path()} + spark.sql.extensions={colsem.EXTENSION_CLASS},")
    print(f"  spark-submit --packages {colsem.maven_coordinate()} (after make publish-local).")

    section("3. SELECT * FROM colsem_status()   (works from any client, Spark Connect too)")
    spark.sql("SELECT * FROM colsem_status()").show(truncate=False)

    section("4. Default settings change nothing: a parquet table, queried as in vanilla Spark")
    spark.sql("CREATE TABLE sales (id INT, region STRING, amount DECIMAL(7,2)) USING parquet")
    spark.sql(
        "INSERT INTO sales VALUES (1, 'north', 10.50), (2, 'south', 20.00), (3, 'north', 5.25)"
    )
    df = spark.sql(
        "SELECT region, sum(amount), count(*) FROM sales GROUP BY region ORDER BY region"
    )
    print("columns:", df.columns)
    df.show()

    section("5. A bad setting is an error naming the key, the value and the choices")
    spark.sql("SET spark.colsem.singlePassResolver.policy=loud")
    try:
        spark.sql("SELECT * FROM sales").collect()
    except AnalysisException as exc:
        print(f"{exc.getCondition()} (SQLSTATE {exc.getSqlState()}):")
        print("  " + str(exc).splitlines()[0])
    spark.sql("RESET spark.colsem.singlePassResolver.policy")
    spark.conf.set("spark.colsem.enabeld", "false")
    try:
        spark.sql("SELECT 1").collect()
    except AnalysisException as exc:
        print(f"{exc.getCondition()} (SQLSTATE {exc.getSqlState()}):")
        print("  " + str(exc).splitlines()[0])
    spark.conf.unset("spark.colsem.enabeld")

    section("6. Lateral column aliases: an item uses an earlier item's alias")
    spark.sql(
        "SELECT id, region, amount * 2 AS double_amount, double_amount + 1 AS plus_one, "
        "upper(region) AS r, concat(r, '-', id) AS label FROM sales ORDER BY id"
    ).show()
    print("In a window and a generator (native Spark refuses / fails on these):")
    spark.sql(
        "SELECT id, amount AS a, sum(a) OVER (ORDER BY id) AS running FROM sales ORDER BY id"
    ).show()
    spark.sql(
        "SELECT id, array(id, id * 10) AS arr, explode(arr) AS e FROM sales ORDER BY id, e"
    ).show()
    print("Inside aggregate arguments and GROUP BY (native Spark refuses both):")
    spark.sql(
        "SELECT region AS r, upper(r) AS ur, count(*) AS n, n * 10 AS n10 "
        "FROM sales GROUP BY r, ur ORDER BY r"
    ).show()
    spark.sql(
        "SELECT region AS r, amount * 2 AS twice, sum(twice) AS total "
        "FROM sales GROUP BY region, amount ORDER BY r, twice"
    ).show()
    print("Evaluated once: a random alias compared with itself")
    spark.sql("SELECT rand(7) AS r, r AS r2, r = r2 AS same FROM range(3)").show()
    chain = (
        "SELECT id AS a0, "
        + ", ".join(f"a{i - 1} + 1 AS a{i}" for i in range(1, 1001))
        + " FROM range(1)"
    )
    print(
        "A chain of 1,000 aliases (native Spark stops at 49): a1000 =",
        spark.sql(chain).first()["a1000"],
    )

    section("7. SELECT * strategies: system columns hidden from *, never lost")
    spark.sql(
        "CREATE TABLE events (id INT, name STRING, _row_id BIGINT, _change_type STRING) "
        "USING parquet TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')"
    )
    spark.sql("INSERT INTO events VALUES (1, 'a', 100, 'insert'), (2, 'b', 200, 'update')")
    print("default:", spark.sql("SELECT * FROM events").columns)
    spark.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
    spark.conf.set("spark.colsem.star.excludePattern", "_change_type|_hoodie_.*")
    print("TAGGED,PATTERN:", spark.sql("SELECT * FROM events").columns)
    print("named explicitly:", spark.sql("SELECT _row_id, * FROM events").columns)
    print(
        "a subquery's explicit choice stays:",
        spark.sql("SELECT * FROM (SELECT _row_id, * FROM events)").columns,
    )
    spark.sql("SELECT * FROM colsem_columns('events')").show(truncate=False)
    spark.sql("INSERT INTO events BY NAME SELECT * FROM events")
    print("after INSERT INTO events BY NAME SELECT * FROM events, hidden values kept:")
    spark.sql("SELECT id, _row_id, _change_type FROM events ORDER BY id, _row_id").show()
    spark.conf.unset("spark.colsem.star.exclude")
    spark.conf.unset("spark.colsem.star.excludePattern")

    section("8. Typed responses: jdbc/json documents from the plan's schema, NULL vs MISSING")
    (workdir / "bank.json").write_text(
        '{"account_number":1,"age":31}\n{"account_number":2,"age":null}\n{"account_number":3}\n'
    )
    (
        spark.read.option("singleVariantColumn", "doc")
        .json(str(workdir / "bank.json"))
        .write.parquet(str(workdir / "bank"))
    )
    spark.sql(
        f"CREATE TEMP VIEW bank AS SELECT variant_get(doc, '$.account_number', 'long') AS "
        f"account_number, variant_get(doc, '$.age', 'int') AS age FROM parquet.`{workdir / 'bank'}`"
    )
    bank = spark.sql("SELECT age, account_number FROM bank ORDER BY account_number")
    print("jdbc (NULL and MISSING both null):")
    print("  " + colsem.respond_text(bank, format="jdbc"))
    print("json (record 3 has no age: MISSING is left out, record 2's null stays):")
    print("  " + colsem.respond_text(bank, format="json"))
    print("An all-NULL column and an empty result keep their types (OpenSearch names):")
    print(
        "  "
        + colsem.respond_text(
            spark.sql(
                "SELECT CAST(NULL AS DECIMAL(9,2)) AS price, region FROM sales WHERE id > 99"
            ),
            types="opensearch",
        )
    )
    print(
        "Streaming: colsem.respond_iter yields the same JSON in pieces, total counted at the end:"
    )
    pieces = list(colsem.respond_iter(spark.sql("SELECT id FROM range(5)"), fetch_size=2))
    print("  " + " | ".join(pieces))
    print(
        'From a shell: colsem sql "SELECT ..." --view bank=bank.parquet --format json|jdbc|table|csv'
    )

    section("9. Schema invariants: SET spark.colsem.invariants=error (default off)")
    spark.conf.set("spark.colsem.invariants", "error")
    print("A qualifier never reaches an output name; a dotted name is one you write:")
    spark.sql(
        "SELECT sales.id, sales.amount + 1, sales.region AS `sales.region` FROM sales ORDER BY 1"
    ).show()
    print("A self-join without aliases would produce the same (relation, name) twice:")
    try:
        spark.sql("SELECT * FROM sales JOIN sales ON true").collect()
    except AnalysisException as exc:
        print(f"{exc.getCondition()} (SQLSTATE {exc.getSqlState()}):")
        print("  " + str(exc).splitlines()[0])
    print("Optimizer rules, planner strategies and physical rules that change a schema fail the")
    print("query naming the rule (tests/extensions/BrokenRules.scala has broken ones to try).")
    spark.conf.unset("spark.colsem.invariants")

    section("10. Output naming dialects: spark.colsem.naming.dialect")
    naming_sql = (
        "SELECT region, count(*), amount <> 1, -2, 'x', CAST(id AS BIGINT), "
        "(SELECT max(id) FROM sales) FROM sales GROUP BY region, amount, id"
    )
    print(naming_sql)
    for dialect in ("spark", "canonical", "postgres", "mysql", "sqlite"):
        spark.conf.set("spark.colsem.naming.dialect", dialect)
        print(f"  {dialect:9s} {spark.sql(naming_sql).columns}")
    spark.conf.set("spark.colsem.naming.dialect", "postgres")
    print("An outer query refers to an inner unaliased item by the dialect's name:")
    spark.sql(
        "SELECT `?column?` AS doubled, upper FROM (SELECT id * 2, upper(region) FROM sales) "
        "ORDER BY doubled"
    ).show()
    spark.conf.unset("spark.colsem.naming.dialect")

    section("11. Features")
    print("in this version: packaging and the three ways in, config, errors, guards,")
    print(
        "  lateral column aliases, SELECT * strategies, output naming dialects, schema invariants,"
    )
    print("  typed responses (jdbc/json, NULL vs MISSING, colsem sql)")
    spark.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
