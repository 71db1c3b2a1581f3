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
import csv
import os
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from ._respond import ColsemResponseError, _pieces, loads, respond_iter

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.connect.shell.progress import ProgressHandler, StageInfo

OUTPUT_FORMATS = ("table", "jdbc", "json", "csv")
READERS = {".parquet": "parquet", ".json": "json", ".jsonl": "json", ".csv": "csv", ".orc": "orc"}


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


def _pair(text: str, what: str) -> list[str]:
    if "=" not in text:
        raise SystemExit(f"colsem sql: {what} {text!r} must look like NAME=VALUE")
    name, value = text.split("=", 1)
    return [name.strip(), value.strip()]


def build_session(args: argparse.Namespace) -> SparkSession:
    from pyspark.sql import SparkSession

    from . import configure

    confs = dict(_pair(item, "--conf") for item in args.conf)
    if args.remote:
        return _remote_session(args, confs)
    builder = (
        SparkSession.builder.master(args.master or "local[*]")
        .appName("colsem sql")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.warehouse:
        builder.config("spark.sql.warehouse.dir", str(Path(args.warehouse).resolve()))
    if "spark.driver.extraJavaOptions" not in confs:
        # stderr is for the progress line and errors: the JVM's start-up chatter stays out of it.
        builder.config(
            "spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={_quiet_log4j()}"
        )
    for key, value in confs.items():
        builder.config(key, value)
    spark = configure(builder).getOrCreate()
    # A failing query is reported once, on stderr, by run(); Spark would also log it (with its
    # stack trace) at ERROR level.
    spark.sparkContext.setLogLevel("FATAL")
    return spark


def _remote_session(args: argparse.Namespace, confs: dict[str, str]) -> SparkSession:
    """A Spark Connect session. What only a starting Spark can take is refused by name before
    connecting; each --conf is set in the session, and one the server refuses is an error."""
    from pyspark.errors import PySparkException
    from pyspark.sql import SparkSession

    where = (
        f"--remote {args.remote}"
        if os.environ.get("SPARK_REMOTE") != args.remote
        else f"SPARK_REMOTE={args.remote}"
    )
    if args.master:
        raise SystemExit(
            f"colsem sql: --master cannot apply with {where}: a Spark Connect server "
            "runs on the master it was started with. Leave out --master (or unset "
            "SPARK_REMOTE to run a local session)."
        )
    if args.warehouse:
        raise SystemExit(
            f"colsem sql: --warehouse cannot apply with {where}: spark.sql.warehouse.dir "
            "is a static setting, fixed where the Spark Connect server starts (and its "
            "tables are the server's). Start the server with --conf "
            "spark.sql.warehouse.dir=DIR, or leave out --warehouse."
        )
    spark = SparkSession.builder.remote(args.remote).getOrCreate()
    for key, value in confs.items():
        try:
            spark.conf.set(key, value)
        except PySparkException as exc:
            spark.stop()
            raise SystemExit(
                f"colsem sql: --conf {key} cannot apply with {where}: the server refused it "
                f"({str(exc).strip().splitlines()[0]}). Static and Spark core settings are fixed "
                "where the server starts; a client sets only SQL settings (spark.sql.*, "
                "spark.colsem.*)."
            ) from None
    return spark


QUIET_LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %c{1}: %m%n
"""


def _quiet_log4j() -> str:
    import tempfile

    path = Path(tempfile.gettempdir()) / "colsem-sql-log4j2.properties"
    if not path.exists() or path.read_text() != QUIET_LOG4J:
        path.write_text(QUIET_LOG4J)
    return str(path)


def _has_parquet(folder: Path) -> bool:
    return any(p.suffix == ".parquet" for p in folder.rglob("*.parquet"))


def register_warehouse(spark: SparkSession, warehouse: Path) -> None:
    """Folders of parquet files under the warehouse become (external) tables of the session's
    catalog: a local session's in-memory catalog forgets the tables of earlier sessions."""
    if not warehouse.is_dir():
        raise SystemExit(f"colsem sql: --warehouse {warehouse} is not a directory")
    for entry in sorted(warehouse.iterdir()):
        if entry.is_dir() and entry.name.endswith(".db"):
            database = entry.name[:-3]
            spark.sql(f"CREATE DATABASE IF NOT EXISTS `{database}`")
            for table in sorted(entry.iterdir()):
                if table.is_dir() and _has_parquet(table):
                    _create_table(spark, f"`{database}`.`{table.name}`", table)
        elif entry.is_dir() and _has_parquet(entry):
            _create_table(spark, f"`{entry.name}`", entry)


def _create_table(spark: SparkSession, name: str, location: Path) -> None:
    path = str(location.resolve()).replace("'", "\\'")
    spark.sql(f"CREATE TABLE IF NOT EXISTS {name} USING parquet LOCATION '{path}'")


def register_view(spark: SparkSession, spec: str, remote: bool = False) -> None:
    """A temporary view over a file or folder. Over Spark Connect the server reads the path,
    which this machine may not see: a path without a known suffix is read as parquet there."""
    name, path_text = _pair(spec, "--view")
    path = Path(path_text)
    if not remote and not path.exists():
        raise SystemExit(f"colsem sql: --view {name}: {path} does not exist")
    kind = READERS.get(path.suffix.lower())
    if kind is None and (remote or path.is_dir()):
        kind = "parquet"
    if kind is None:
        raise SystemExit(
            f"colsem sql: --view {name}: cannot tell the format of {path} "
            f"(known: {', '.join(sorted(READERS))}, or a folder of parquet files)"
        )
    reader = spark.read.format(kind)
    if kind == "csv":
        reader = reader.option("header", "true").option("inferSchema", "true")
    reader.load(str(path)).createOrReplaceTempView(name)


def _show_progress(stream: TextIO, elapsed: float, parts: list[str]) -> None:
    line = f"[{' | '.join(parts)}] {elapsed:.1f}s"
    stream.write("\r" + line[:79].ljust(79))
    stream.flush()


def _clear_progress(stream: TextIO) -> None:
    stream.write("\r" + " " * 79 + "\r")
    stream.flush()


def progress(
    spark: SparkSession, stream: TextIO, delay: float
) -> contextlib.AbstractContextManager[Any]:
    """The stage progress line of a local session (Spark's status tracker) or of a Spark Connect
    one (the server's progress reports, PySpark 4; a 3.5 Connect client gets none)."""
    if not type(spark).__module__.startswith("pyspark.sql.connect"):
        return Progress(spark, stream, delay)
    if hasattr(spark, "registerProgressHandler"):
        return ConnectProgress(spark, stream, delay)
    return contextlib.nullcontext()


class Progress:
    """One stderr line for the stages of the running query, from Spark's status tracker."""

    def __init__(
        self, spark: SparkSession, stream: TextIO, delay: float, interval: float = 0.1
    ) -> None:
        self._tracker = spark.sparkContext.statusTracker()
        self._stream = stream
        self._delay = delay
        self._interval = interval
        self._stop = threading.Event()
        self._shown = False
        self._thread = threading.Thread(target=self._run, name="colsem-progress", daemon=True)

    def __enter__(self) -> Progress:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        if self._shown:
            _clear_progress(self._stream)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            elapsed = time.monotonic() - self._started
            if elapsed < self._delay:
                continue
            parts = []
            for stage_id in sorted(self._tracker.getActiveStageIds()):
                info = self._tracker.getStageInfo(stage_id)
                if info is not None:
                    parts.append(
                        f"stage {stage_id}: {info.numCompletedTasks}/{info.numTasks} tasks"
                        f" ({info.numActiveTasks} running)"
                    )
            if parts:
                _show_progress(self._stream, elapsed, parts)
                self._shown = True


class ConnectProgress:
    """The same stderr line from the progress reports a Spark Connect server sends while it runs
    an operation (every spark.connect.progress.reportInterval, a server setting). A
    ``ProgressHandler`` by its call signature: that class exists only from PySpark 4."""

    def __init__(self, spark: SparkSession, stream: TextIO, delay: float) -> None:
        self._spark = spark
        self._stream = stream
        self._delay = delay
        self._shown = False

    def __enter__(self) -> ConnectProgress:
        self._started = time.monotonic()
        self._spark.registerProgressHandler(cast("ProgressHandler", self))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._spark.removeProgressHandler(cast("ProgressHandler", self))
        if self._shown:
            _clear_progress(self._stream)

    def __call__(
        self,
        stages: Iterable[StageInfo] | None,
        inflight_tasks: int,
        operation_id: str | None,
        done: bool,
    ) -> None:
        elapsed = time.monotonic() - self._started
        parts = [
            f"stage {s.stage_id}: {s.num_completed_tasks}/{s.num_tasks} tasks"
            for s in (stages or [])
            if not s.done
        ]
        if parts and not done and elapsed >= self._delay:
            parts[-1] += f" ({inflight_tasks} running)"
            _show_progress(self._stream, elapsed, parts)
            self._shown = True


def _cell(value: Any) -> str:
    """A table or csv cell: text as is, NULL for None, JSON text for everything else."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return value
    return _json_text(value)


def _json_text(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        import json

        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(_json_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_json_text(k)}:{_json_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _rows(df: DataFrame, fetch_size: int) -> Iterator[tuple[str, Any]]:
    """("schema", names) then every row as a list of Python values."""
    for kind, payload in _pieces(df, "jdbc", "spark", "null", fetch_size):
        if kind == "head":
            yield "schema", [c["name"] for c in payload]
        elif kind == "rows":
            for text in payload:
                yield "row", loads(text)


def write_table(df: DataFrame, out: TextIO, fetch_size: int) -> None:
    names: list[str] = []
    cells: list[list[str]] = []
    for kind, payload in _rows(df, fetch_size):
        if kind == "schema":
            names = payload
        else:
            cells.append([_cell(v) for v in payload])
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out.write(rule + "\n")
    out.write("|" + "|".join(f" {n.ljust(w)} " for n, w in zip(names, widths)) + "|\n")
    out.write(rule + "\n")
    for row in cells:
        out.write("|" + "|".join(f" {c.ljust(w)} " for c, w in zip(row, widths)) + "|\n")
    if cells:
        out.write(rule + "\n")
    out.write(f"({len(cells)} row{'' if len(cells) == 1 else 's'})\n")


def write_csv(df: DataFrame, out: TextIO, fetch_size: int) -> None:
    writer = csv.writer(out, lineterminator="\n")
    for kind, payload in _rows(df, fetch_size):
        if kind == "schema":
            writer.writerow(payload)
        else:
            writer.writerow(["" if v is None else _cell(v) for v in payload])


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
            if args.format in ("jdbc", "json"):
                for piece in respond_iter(df, args.format, args.types, fetch_size=args.fetch_size):
                    out.write(piece)
                out.write("\n")
            elif args.format == "csv":
                write_csv(df, out, args.fetch_size)
            else:
                write_table(df, out, args.fetch_size)
            out.flush()
    except (PySparkException, ColsemResponseError) as exc:
        err.write(f"error: {str(exc).strip().splitlines()[0]}\n")
        return 1
    return 0
