"""colsem: column semantics for Apache Spark SQL.

    import colsem
    spark = colsem.configure(SparkSession.builder).getOrCreate()
    colsem.status(spark)

After ``pip install colsem`` a plain ``SparkSession.builder.getOrCreate()`` gets colsem too
(``COLSEM_AUTOREGISTER=0`` turns that off): colsem_autoregister.pth runs the top-level
``colsem_autoregister`` module at interpreter start-up, which imports this package only once a
session is built.
"""

from __future__ import annotations

from . import _jars
from ._configure import ColsemConnectError, configure, connect_instructions
from ._jars import (
    BuildInfo,
    ColsemError,
    UnsupportedSparkVersion,
    build_info,
    builds,
    check_pyspark_version,
    jar_path,
    pyspark_supported,
)
from ._respond import ColsemResponseError, respond, respond_iter, respond_text
from ._status import status

EXTENSION_CLASS = "io.colsem.ColsemExtensions"


def maven_coordinate() -> str:
    """``group:artifact:version`` of the jar for the running pyspark, for
    ``spark-submit --packages``."""
    return build_info().maven_coordinate


def __getattr__(name: str) -> str:
    if name == "__version__":
        return _jars.package_version()
    raise AttributeError(name)


__all__ = [
    "BuildInfo",
    "ColsemConnectError",
    "ColsemError",
    "ColsemResponseError",
    "EXTENSION_CLASS",
    "UnsupportedSparkVersion",
    "build_info",
    "builds",
    "check_pyspark_version",
    "configure",
    "connect_instructions",
    "jar_path",
    "maven_coordinate",
    "pyspark_supported",
    "respond",
    "respond_iter",
    "respond_text",
    "status",
]
