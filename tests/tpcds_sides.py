"""TPC-DS over a small generated dataset, run in a Spark JVM of its own (a "side"): the queries'
plans on empty tables and the rows of some of them on the data. tests/test_tpcds_vanilla.py
compares vanilla Spark with colsem, tests/test_comet.py Comet alone with Comet beside colsem."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from conftest import run_python

ROWS_PER_TABLE = 60
# Values string columns take: words the TPC-DS queries filter on, so some rows match.
WORDS = [
    "Books",
    "Music",
    "Home",
    "Sports",
    "Electronics",
    "Women",
    "Men",
    "Children",
    "Jewelry",
    "M",
    "F",
    "S",
    "D",
    "W",
    "U",
    "N",
    "Y",
    "TN",
    "CA",
    "GA",
    "TX",
    "Unknown",
    "College",
    "Primary",
    "Advanced Degree",
    "ese",
    "pri",
    "able",
    "ought",
    "Williamson County",
]


def value_sql(index: int, column: str, sql_type: str) -> str:
    """A deterministic small-domain value for row `id`, by column name and type."""
    k = 7 + 4 * index  # a different stride per column, so columns do not move in lockstep
    t = sql_type.upper()
    if column.endswith("_year"):
        return f"CAST(1998 + pmod(id * {k}, 5) AS {t})"
    if column.endswith(("_moy", "_month")):
        return f"CAST(1 + pmod(id * {k}, 12) AS {t})"
    if column.endswith("_qoy"):
        return f"CAST(1 + pmod(id * {k}, 4) AS {t})"
    if t in ("INT", "BIGINT"):
        return f"CAST(1 + pmod(id * {k}, 11) AS {t})"
    if t.startswith("DECIMAL"):
        return f"CAST(pmod(id * {k}, 400) / 4 AS {t})"
    if t == "DATE":
        return f"date_add(DATE '1998-01-01', CAST(pmod(id * {k}, 1800) AS INT))"
    words = ", ".join("'" + w + "'" for w in WORDS)
    return f"CAST(element_at(array({words}), CAST(1 + pmod(id * {k}, {len(WORDS)}) AS INT)) AS {t})"


def write_data(spark, corpus, root: Path) -> Path:  # type: ignore[no-untyped-def]
    """Parquet files for the 24 tables under root/<table>, written once."""
    if not root.exists():
        for table, columns in corpus.tables().items():
            items = ", ".join(f"{value_sql(i, c, t)} AS {c}" for i, (c, t) in enumerate(columns))
            spark.sql(f"SELECT {items} FROM range({ROWS_PER_TABLE})").write.parquet(
                str(root / table)
            )
    return root


SIDE = r'''
import json, re, sys
from pathlib import Path
from pyspark.sql import SparkSession

options = json.loads(Path(sys.argv[1]).read_text())
corpus, data = Path(options["corpus"]), Path(options["data"])
builder = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
           .config("spark.sql.shuffle.partitions", "2").config("spark.sql.warehouse.dir", options["warehouse"]))
for key, value in options["conf"].items():
    builder.config(key, value)
if options["colsem"]:
    import colsem
    colsem.configure(builder)
spark = builder.getOrCreate()
for key, value in options["session_conf"].items():
    spark.conf.set(key, value)
loaded = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
spark.sql("CREATE DATABASE empty_tables")
spark.sql("CREATE DATABASE data_tables")
for stmt in (s.strip() for s in (corpus / "schema.sql").read_text().split(";")):
    if stmt:
        spark.sql("USE empty_tables"); spark.sql(stmt)
        name = re.match(r"CREATE TABLE (\w+)", stmt).group(1)
        spark.sql("USE data_tables"); spark.sql(stmt.replace(") USING parquet", f") USING parquet LOCATION '{data / name}'"))
def norm(text):
    text = re.sub(r"#\d+L?", "#_", text)
    return re.sub(r"(CTERelation(?:Def|Ref)) \d+", r"\1 _", text)
def fmt(v):
    return "NULL" if v is None else str(v)
def run(sql):
    """The query's names, sorted rows and executed plan; or, where it fails on this data (a scalar
    subquery with more than one row, an overflow), its error class: the other side must fail alike."""
    df = spark.sql(sql)
    try:
        rows = sorted("\t".join(fmt(v) for v in r) for r in df.collect())
    except Exception as e:
        condition = getattr(e, "getCondition", None) or getattr(e, "getErrorClass", None)
        return {"columns": df.columns, "error": (condition() if condition else None) or type(e).__name__,
                "executed_plan": df._jdf.queryExecution().executedPlan().toString()}
    return {"columns": df.columns, "rows": rows, "executed_plan": df._jdf.queryExecution().executedPlan().toString()}
result = {"colsem_loaded": loaded, "plans": {}, "runs": {}}
for path in sorted((corpus / "queries").glob("*.sql")):
    if options["analyze"]:
        spark.sql("USE empty_tables")
        df = spark.sql(path.read_text())
        qe = df._jdf.queryExecution()
        result["plans"][path.stem] = [df.schema.json(), norm(qe.analyzed().toString()), norm(qe.optimizedPlan().toString())]
    if path.stem in options["executed"]:
        spark.sql("USE data_tables")
        result["runs"][path.stem] = run(path.read_text())
# A table that tags a system column to hide from `*` (spark.colsem.star.exclude=TAGGED).
spark.sql("USE default")
spark.sql("CREATE TABLE events (id INT, msg STRING, _ts BIGINT) USING parquet "
          "TBLPROPERTIES ('colsem.hidden_columns' = '_ts')")
spark.sql("INSERT INTO events VALUES (1, 'a', 10), (2, 'b', 20)")
result["runs"]["events: SELECT *"] = run("SELECT * FROM events WHERE id > 0")
result["runs"]["events: SELECT id, _ts"] = run("SELECT id, _ts FROM events WHERE id > 0")
Path(options["out"]).write_text(json.dumps(result))
print("RESULT " + json.dumps({"queries": len(result["plans"]), "runs": len(result["runs"])}), flush=True)
'''


def run_side(
    name: str,
    corpus,
    data: Path,
    workdir: Path,
    executed: Sequence[Path],  # type: ignore[no-untyped-def]
    colsem: bool,
    analyze: bool = True,
    conf: Mapping[str, str] = {},
    session_conf: Mapping[str, str] = {},
    long_running: bool = False,
) -> dict:
    """One side's results: {"colsem_loaded", "plans": {query: [schema, analyzed, optimized]},
    "runs": {query: {"columns", "rows" or "error", "executed_plan"}}}."""
    out = workdir / f"tpcds_side_{name}.json"
    options = workdir / f"tpcds_side_{name}.options.json"
    options.write_text(
        json.dumps(
            {
                "corpus": str(corpus.folder),
                "data": str(data),
                "warehouse": str(workdir / f"tpcds_side_{name}_warehouse"),
                "out": str(out),
                "executed": [p.stem for p in executed],
                "colsem": colsem,
                "analyze": analyze,
                "conf": dict(conf),
                "session_conf": dict(session_conf),
            }
        )
    )
    proc = run_python(
        SIDE,
        env={"COLSEM_AUTOREGISTER": "0"},
        timeout=1500,
        args=[str(options)],
        long_running=long_running,
    )
    assert proc.returncode == 0 and out.exists(), proc.stderr[-4000:]
    return json.loads(out.read_text())
