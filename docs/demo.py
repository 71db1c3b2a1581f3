"""`make demo`: what colsem does in this version, run against a real local Spark session.

Run it with the project's venv: `.venv/bin/python docs/demo.py` (make demo does that)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession

import colsem


def section(title: str) -> None:
    print(f"\n=== {title} " + "=" * max(0, 70 - len(title)))


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="colsem-demo-"))
    info = colsem.build_info()
    section("1. The jar inside the package")
    print(f"jar:               {colsem.jar_path()}")
    print(f"maven coordinate:  {colsem.maven_coordinate()}")
    print(f"built for:         Spark {info.spark_line}, Scala {info.scala_binary} (pyspark {info.pyspark_supported})")

    section("2. Into a session: colsem.configure(SparkSession.builder)")
    builder = (SparkSession.builder.master("local[1]").appName("colsem-demo")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.warehouse.dir", str(workdir / "warehouse")))
    spark = colsem.configure(builder).getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    print(f"spark.sql.extensions = {spark.conf.get('spark.sql.extensions')}")
    print("Other ways in: a plain SparkSession.builder.getOrCreate() after pip install (automatic),")
    print(f"  spark.jars={colsem.jar_path()} + spark.sql.extensions={colsem.EXTENSION_CLASS},")
    print(f"  spark-submit --packages {colsem.maven_coordinate()} (after make publish-local).")

    section("3. SELECT * FROM colsem_status()   (works from any client, Spark Connect too)")
    spark.sql("SELECT * FROM colsem_status()").show(truncate=False)

    section("4. Default settings change nothing: a parquet table, queried as in vanilla Spark")
    spark.sql("CREATE TABLE sales (id INT, region STRING, amount DECIMAL(7,2)) USING parquet")
    spark.sql("INSERT INTO sales VALUES (1, 'north', 10.50), (2, 'south', 20.00), (3, 'north', 5.25)")
    df = spark.sql("SELECT region, sum(amount), count(*) FROM sales GROUP BY region ORDER BY region")
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

    section("6. Features")
    print("foundation (packaging, three ways in, config, errors, guards): in this version")
    print("lateral column aliases, SELECT * strategies, naming dialects, schema invariants,")
    print("typed results: not in this version yet (see the open issues and docs/).")
    spark.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
