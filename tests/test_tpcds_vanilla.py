"""TPC-DS against vanilla Spark in its own JVM (colsem not loaded at all): with default settings,
colsem analyzes and optimizes every query to the same plans and schemas, and on a small generated
dataset a subset of the queries returns the same rows. Reads ../shared/tpcds (or
$COLSEM_TPCDS_DIR) in place."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List

import pytest

from conftest import run_python
from golden import format_value
from test_tpcds import QUERIES, TPCDS, _normalized, pytestmark  # noqa: F401  (skip without corpus)

EXECUTED = QUERIES[::4]  # every fourth query: 26 of 103, spread over the corpus
ROWS_PER_TABLE = 60
# Values string columns take: words the TPC-DS queries filter on, so some rows match.
WORDS = ["Books", "Music", "Home", "Sports", "Electronics", "Women", "Men", "Children", "Jewelry",
         "M", "F", "S", "D", "W", "U", "N", "Y", "TN", "CA", "GA", "TX", "Unknown", "College",
         "Primary", "Advanced Degree", "ese", "pri", "able", "ought", "Williamson County"]


def table_columns() -> Dict[str, List[tuple]]:
    """Each table's (column, type) pairs, from schema.sql."""
    tables: Dict[str, List[tuple]] = {}
    for name, body in re.findall(r"CREATE TABLE (\w+) \((.*?)\) USING parquet", (TPCDS / "schema.sql").read_text(), re.S):
        tables[name] = [tuple(line.strip().rstrip(",").split(None, 1)) for line in body.strip().splitlines()]
    return tables


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


@pytest.fixture(scope="module")
def tpcds_data(spark, workdir: Path) -> Path:
    """Parquet files for the 24 tables, written once, read by both JVMs."""
    root = workdir / "tpcds_data"
    if not root.exists():
        for table, columns in table_columns().items():
            items = ", ".join(f"{value_sql(i, c, t)} AS {c}" for i, (c, t) in enumerate(columns))
            spark.sql(f"SELECT {items} FROM range({ROWS_PER_TABLE})").write.parquet(str(root / table))
    return root


SIDE = r'''
import json, re, sys
from pathlib import Path
from pyspark.sql import SparkSession

corpus, data, warehouse, out, executed = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5].split(",")
builder = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
           .config("spark.sql.shuffle.partitions", "2").config("spark.sql.warehouse.dir", warehouse))
if sys.argv[6] == "colsem":
    import colsem
    colsem.configure(builder)
spark = builder.getOrCreate()
loaded = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
schema = "\n".join(l for l in (corpus / "schema.sql").read_text().splitlines() if not l.strip().startswith("--"))
spark.sql("CREATE DATABASE empty_tables")
spark.sql("CREATE DATABASE data_tables")
for stmt in (s.strip() for s in schema.split(";")):
    if stmt:
        spark.sql("USE empty_tables"); spark.sql(stmt)
        name = re.match(r"CREATE TABLE (\w+)", stmt).group(1)
        spark.sql("USE data_tables"); spark.sql(stmt.replace(") USING parquet", f") USING parquet LOCATION '{data / name}'"))
def norm(text):
    text = re.sub(r"#\d+L?", "#_", text)
    return re.sub(r"(CTERelation(?:Def|Ref)) \d+", r"\1 _", text)
def fmt(v):
    return "NULL" if v is None else str(v)
result = {"colsem_loaded": loaded, "plans": {}, "rows": {}}
for path in sorted((corpus / "queries").glob("*.sql")):
    spark.sql("USE empty_tables")
    df = spark.sql(path.read_text())
    qe = df._jdf.queryExecution()
    result["plans"][path.stem] = [df.schema.json(), norm(qe.analyzed().toString()), norm(qe.optimizedPlan().toString())]
    if path.stem in executed:
        spark.sql("USE data_tables")
        result["rows"][path.stem] = sorted("\t".join(fmt(v) for v in r) for r in spark.sql(path.read_text()).collect())
Path(out).write_text(json.dumps(result))
print("RESULT " + json.dumps({"queries": len(result["plans"])}), flush=True)
'''


def run_side(mode: str, tpcds_data: Path, workdir: Path) -> dict:
    out = workdir / f"tpcds_{mode}.json"
    proc = run_python(SIDE, env={"COLSEM_AUTOREGISTER": "0"}, timeout=1500, args=[
        str(TPCDS), str(tpcds_data), str(workdir / f"tpcds_{mode}_warehouse"), str(out),
        ",".join(p.stem for p in EXECUTED), mode])
    assert proc.returncode == 0 and out.exists(), proc.stderr[-4000:]
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def both(tpcds_data: Path, workdir: Path) -> Dict[str, dict]:
    """The two JVMs side by side (each is mostly one busy thread): half the wall time of one after
    the other."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        sides = {mode: pool.submit(run_side, mode, tpcds_data, workdir) for mode in ("vanilla", "colsem")}
        return {mode: side.result() for mode, side in sides.items()}


def test_sides_are_what_they_claim(both):
    assert both["vanilla"]["colsem_loaded"] is False
    assert both["colsem"]["colsem_loaded"] is True
    assert len(both["vanilla"]["plans"]) == len(QUERIES) == 103


@pytest.mark.parametrize("query", QUERIES, ids=lambda p: p.stem)
def test_schema_and_plans_equal_vanilla_spark(both, query):
    vanilla, colsem_ = both["vanilla"]["plans"][query.stem], both["colsem"]["plans"][query.stem]
    assert colsem_[0] == vanilla[0], "schema"
    assert colsem_[1] == vanilla[1], "analyzed plan"
    assert colsem_[2] == vanilla[2], "optimized plan"


@pytest.mark.parametrize("query", EXECUTED, ids=lambda p: p.stem)
def test_rows_equal_vanilla_spark(both, query):
    assert both["colsem"]["rows"][query.stem] == both["vanilla"]["rows"][query.stem]


def test_generated_data_gives_rows(both):
    """The dataset is small but not empty-handed: a good share of the executed queries return rows."""
    with_rows = [q for q, rows in both["vanilla"]["rows"].items() if rows]
    assert len(with_rows) >= len(EXECUTED) // 3, with_rows
