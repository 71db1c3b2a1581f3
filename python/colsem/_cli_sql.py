"""``colsem sql``: run SQL on a local session with colsem active, or on a Spark Connect server that
runs colsem, and print a typed response.

    colsem sql "SELECT age, account_number FROM bank" --view bank=/data/bank.parquet --format json
    colsem sql -f report.sql --warehouse ./warehouse --format csv
    colsem sql "SELECT * FROM colsem_status()" --remote sc://localhost:15002

Every statement of the text runs in order; the last one's result is printed (``jdbc`` and ``json``
as the documents of :func:`colsem.respond`, streamed; ``csv`` streamed; ``table`` aligned, so
buffered). A progress line for running Spark stages goes to stderr.

Over Spark Connect (``--remote``, or the SPARK_REMOTE environment variable as PySpark reads it)
the server's own settings apply: ``--master``, ``--warehouse`` and static or Spark core
``--conf`` settings are fixed where the server starts, and are refused with an error naming them;
SQL settings (``spark.sql.*``, ``spark.colsem.*``) apply to the session. ``--view`` paths are read
by the server.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ._respond import ColsemResponseError
from ._sql_progress import progress
from ._sql_session import build_session, register_view, register_warehouse
from ._sql_writers import OUTPUT_FORMATS, write_result

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="?", help="the SQL text (or use -f)")
    parser.add_argument("-f", "--file", help="read the SQL from this file ('-' for stdin)")
    parser.add_argument(
        "--format",
        choices=OUTPUT_FORMATS,
        default="table",
        help="output: an aligned table (default), the jdbc or json response, or csv",
    )
    parser.add_argument(
        "--types",
        choices=("spark", "opensearch"),
        default="spark",
        help="type names in the jdbc/json schema (default spark)",
    )
    parser.add_argument(
        "--warehouse",
        metavar="DIR",
        help="spark.sql.warehouse.dir; its folders of parquet files are tables "
        "(DIR/t -> t, DIR/db.db/t -> db.t)",
    )
    parser.add_argument(
        "--view",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a temporary view over a file or folder (.parquet, .json, .csv, .orc; "
        "a folder is read as parquet); repeatable",
    )
    parser.add_argument(
        "--conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a Spark or spark.colsem.* setting; repeatable",
    )
    parser.add_argument(
        "--fetch-size",
        type=int,
        default=1000,
        help="rows moved from Spark per batch (default 1000)",
    )
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="stage progress on stderr: auto = when stderr is a terminal and the "
        "query runs longer than a second",
    )
    parser.add_argument("--master", help="Spark master of the local session (default local[*])")
    parser.add_argument(
        "--remote",
        metavar="URL",
        default=os.environ.get("SPARK_REMOTE") or None,
        help="run on this Spark Connect server (sc://host:port) instead of a local "
        "session; the server must run colsem (colsem.connect_instructions()). "
        "Default: $SPARK_REMOTE, as PySpark reads it",
    )


def split_statements(text: str) -> list[str]:
    """Statements end with ';' at the end of a line (a ';' inside a line stays)."""
    chunks = re.split(r";[ \t]*(?:\r?\n|$)", text)
    return [c.strip() for c in chunks if c.strip() and not _only_comments(c)]


def _only_comments(chunk: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in chunk.splitlines())


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if (args.query is None) == (args.file is None):
        err.write("colsem sql: give the SQL text or -f FILE (one of them)\n")
        return 2
    if args.file == "-":
        text = sys.stdin.read()
    elif args.file:
        text = Path(args.file).read_text(encoding="utf-8")
    else:
        text = args.query
    statements = split_statements(text)
    if not statements:
        err.write("colsem sql: no SQL statement to run\n")
        return 2
    spark = build_session(args)
    try:
        if args.warehouse:
            register_warehouse(spark, Path(args.warehouse))
        for spec in args.view:
            register_view(spark, spec, remote=bool(args.remote))
        show = args.progress == "always" or (args.progress == "auto" and err.isatty())
        delay = 0.0 if args.progress == "always" else 1.0
        return _run_statements(spark, statements, args, out, err, show, delay)
    finally:
        spark.stop()


def _run_statements(
    spark: SparkSession,
    statements: list[str],
    args: argparse.Namespace,
    out: TextIO,
    err: TextIO,
    show: bool,
    delay: float,
) -> int:
    from pyspark.errors import PySparkException

    # PySpark 4 logs every failing query (with the JVM stack trace) before raising it; the error
    # line below is the one report. (PySpark 3.5 has no pyspark.logger and logs nothing of it.)
    try:
        from pyspark.logger import PySparkLogger
    except ImportError:
        pass
    else:
        for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
            PySparkLogger.getLogger(name).disabled = True

    try:
        with progress(spark, err, delay) if show else contextlib.nullcontext():
            for sql in statements[:-1]:
                spark.sql(sql).collect()
            df = spark.sql(statements[-1])
            write_result(df, args.format, args.types, args.fetch_size, out)
            out.flush()
    except (PySparkException, ColsemResponseError) as exc:
        err.write(f"error: {str(exc).strip().splitlines()[0]}\n")
        return 1
    return 0
