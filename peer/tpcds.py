"""TPC-DS as Spark's own tests run it, from the spark-sql test jar of a Spark line on Maven Central
(the jar `make peer` reads its corpus from): the queries of `tpcds/` (TPC-DS v1.4, 103 files) and
`tpcds-v2.7.0/` (32 files, named `<query>-v2.7` as Spark's TPCDSQuerySuite names them), and the
24 tables' columns as Spark's TPCDSSchema declares them.

Unpacked once into ~/.cache/colsem/tpcds/<version>/:
- `queries/<name>.sql`, one query a file;
- `schema.sql`: `CREATE TABLE <table> (` one `<column> <type>,` a line `) USING parquet;` per table.

The columns are compiled into the test jar (a Scala trait), so a small Java program, run with the
JDK's source launcher against the jar and the line's scala-library, prints them."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from peer.corpus import extract, unpacked

QUERY_FOLDERS = {"tpcds/": "", "tpcds-v2.7.0/": "-v2.7"}  # folder in the jar -> name suffix
V1_4_QUERIES = 103
V2_7_QUERIES = 32

SCHEMA_PRINTER = """
public class PrintTpcdsSchema {
  public static void main(String[] args) {
    scala.collection.Iterator<scala.Tuple2<String, String>> tables =
        org.apache.spark.sql.execution.benchmark.TPCDSSchemaHelper$.MODULE$.tableColumns().iterator();
    while (tables.hasNext()) {
      scala.Tuple2<String, String> table = tables.next();
      System.out.println(table._1() + "\\t" + table._2().replace('\\n', ' ').trim());
    }
  }
}
"""


@dataclass(frozen=True)
class Tpcds:
    version: str  # the Spark release whose test jar it comes from
    folder: Path

    @property
    def schema(self) -> Path:
        return self.folder / "schema.sql"

    def queries(self) -> list[Path]:
        """Every query file, in query order (q1, q2, ..., q14a, q14b, ..., then the v2.7 forms)."""
        return sorted((self.folder / "queries").glob("*.sql"), key=query_order)

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        """Each table's (column, type) pairs, as schema.sql declares them."""
        return {
            name: [
                tuple(line.strip().rstrip(",").split(None, 1)) for line in body.strip().splitlines()
            ]
            for name, body in re.findall(
                r"CREATE TABLE (\w+) \((.*?)\) USING parquet", self.schema.read_text(), re.S
            )
        }

    def create_statements(self) -> list[str]:
        return [s.strip() for s in self.schema.read_text().split(";") if s.strip()]


def query_order(path: Path) -> tuple[int, int, str]:
    match = re.fullmatch(r"q(\d+)([a-z]*)(-v2\.7)?", path.stem)
    if not match:
        raise ValueError(f"not a TPC-DS query file name: {path.name}")
    return (1 if match.group(3) else 0, int(match.group(1)), match.group(2))


def split_columns(ddl: str) -> list[tuple[str, str]]:
    """'`a` INT, `b` DECIMAL(7,2)' -> [('a', 'INT'), ('b', 'DECIMAL(7,2)')]: commas inside a
    type's parentheses do not split."""
    columns, depth, start = [], 0, 0
    for i, ch in enumerate(ddl + ","):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            name, sql_type = ddl[start:i].strip().split(None, 1)
            columns.append((name.strip("`"), sql_type.strip()))
            start = i + 1
    return columns


def scala_library(scala_binary: str) -> Path:
    """The scala-library jar of the running pyspark (the test jar's Scala line)."""
    import pyspark

    jars = sorted(
        (Path(pyspark.__file__).parent / "jars").glob(f"scala-library-{scala_binary}.*.jar")
    )
    if not jars:
        raise RuntimeError(
            f"no scala-library-{scala_binary}.*.jar in the installed pyspark's jars: "
            "run this with the Spark line's venv (make venv SPARK=<line>)"
        )
    return jars[-1]


def schema_sql(jar: Path) -> str:
    scala_binary = re.search(r"spark-sql_(\d+\.\d+)-", jar.name).group(1)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "PrintTpcdsSchema.java"
        source.write_text(SCHEMA_PRINTER)
        proc = subprocess.run(
            ["java", "-cp", f"{jar}:{scala_library(scala_binary)}", str(source)],
            capture_output=True,
            text=True,
            timeout=300,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"reading TPCDSSchema from {jar} failed:\n{proc.stderr[-2000:]}")
    statements = []
    for line in sorted(proc.stdout.strip().splitlines()):
        table, ddl = line.split("\t", 1)
        columns = ",\n".join(f"  {name} {sql_type}" for name, sql_type in split_columns(ddl))
        statements.append(f"CREATE TABLE {table} (\n{columns}\n) USING parquet;\n")
    return "\n".join(statements)


def unpack(jar: Path, folder: Path) -> None:
    extract(jar, folder, tuple(QUERY_FOLDERS))
    (folder / "queries").mkdir()
    for source, suffix in QUERY_FOLDERS.items():
        for query in (folder / source).glob("*.sql"):
            query.rename(folder / "queries" / f"{query.stem}{suffix}.sql")
        (folder / source).rmdir()
    found = len(list((folder / "queries").glob("*.sql")))
    if found != V1_4_QUERIES + V2_7_QUERIES:
        raise RuntimeError(
            f"{jar} holds {found} TPC-DS queries, not {V1_4_QUERIES} + {V2_7_QUERIES}"
        )
    (folder / "schema.sql").write_text(schema_sql(jar))


def corpus(
    line: str, log: Callable[[str], None] = lambda text: print(text, file=sys.stderr)
) -> Tpcds:
    """Line L's TPC-DS queries and schema, fetched and unpacked once."""
    version, folder = unpacked(line, "tpcds", unpack, log)
    return Tpcds(version, folder)
