"""``colsem sql``'s session: a local one with colsem configured or a Spark Connect one, and the
tables and views the command line names registered in it."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

READERS = {".parquet": "parquet", ".json": "json", ".jsonl": "json", ".csv": "csv", ".orc": "orc"}


def pair(text: str, what: str) -> list[str]:
    if "=" not in text:
        raise SystemExit(f"colsem sql: {what} {text!r} must look like NAME=VALUE")
    name, value = text.split("=", 1)
    return [name.strip(), value.strip()]


def build_session(args: argparse.Namespace) -> SparkSession:
    from pyspark.sql import SparkSession

    from . import configure

    confs = dict(pair(item, "--conf") for item in args.conf)
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


def log4j_properties(root_level: str, loggers: dict[str, str] | None = None) -> str:
    """A log4j2 configuration that prints `root_level` and above (and each of `loggers`, a
    logger name to its level) on the JVM's stderr, one short line per event."""
    lines = [
        f"rootLogger.level = {root_level}",
        "rootLogger.appenderRef.stderr.ref = console",
        "appender.console.type = Console",
        "appender.console.name = console",
        "appender.console.target = SYSTEM_ERR",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = %p %c{1}: %m%n",
    ]
    for i, (name, level) in enumerate((loggers or {}).items()):
        lines += [f"logger.l{i}.name = {name}", f"logger.l{i}.level = {level}"]
    return "\n".join(lines) + "\n"


QUIET_LOG4J = log4j_properties("error")


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
    name, path_text = pair(spec, "--view")
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
