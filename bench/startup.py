"""Start-up: the sessions a bench process starts (its own, colsem's or vanilla's, and a vanilla
session beside colsem's in one JVM), and the start-up benchmark: session start to first result."""

from __future__ import annotations

import time
from typing import Any

from bench.benchmark import Across, Process, benchmark

WORKER_HEAP = "4g"  # each worker JVM's heap (spark.driver.memory)


def start_session(mode: str, tmp: str) -> tuple[Any, float]:
    """A worker's session, colsem's (configured) or vanilla's, and the seconds from here to its
    first result (SELECT 1)."""
    started = time.perf_counter()
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[1]")
        # Both modes get the same heap, so the GC works alike for both; the chains' heap
        # figures are taken under it (tests/test_lateral_alias.py holds a 10,000-alias
        # chain in Spark's default 1g).
        .config("spark.driver.memory", WORKER_HEAP)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.warehouse.dir", f"{tmp}/warehouse")
        .config("spark.sql.catalogImplementation", "in-memory")
    )
    if mode == "colsem":
        import colsem

        colsem.configure(builder)
    spark = builder.getOrCreate()
    spark.sql("SELECT 1").collect()
    seconds = time.perf_counter() - started
    active = spark.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() == 1
    if active != (mode == "colsem"):
        raise SystemExit(f"{mode} run has colsem active={active}")
    return spark, seconds


def vanilla_session_beside(spark):  # type: ignore[no-untyped-def]
    """A JVM session without any extension, sharing `spark`'s SparkContext and catalog: built with
    an explicit empty SparkSessionExtensions, so neither spark.sql.extensions nor ServiceLoader
    providers apply (the builder would apply both)."""
    jvm = spark._jvm
    session = spark._jsparkSession
    empty_map = getattr(getattr(jvm.scala.collection.immutable, "Map$"), "MODULE$").empty()
    vanilla = jvm.org.apache.spark.sql.classic.SparkSession(
        session.sparkContext(),
        jvm.scala.Some(session.sharedState()),
        jvm.scala.Option.empty(),
        jvm.org.apache.spark.sql.SparkSessionExtensions(),
        empty_map,
        empty_map,
    )
    if vanilla.sql("SHOW FUNCTIONS LIKE 'colsem_status'").count() != 0:
        raise SystemExit("the session built beside colsem's has colsem")
    return vanilla


@benchmark(rows=lambda settings: [Across("startup_s", "session start-up (s)")])
def startup(process: Process) -> dict[str, float]:
    """SparkSession start to first result (SELECT 1), timed by start_session as the worker began."""
    return {"startup_s": process.startup_s}
