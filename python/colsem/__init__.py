"""colsem: column semantics for Apache Spark SQL.

    import colsem
    spark = colsem.configure(SparkSession.builder).getOrCreate()
    colsem.status(spark)

After ``pip install colsem`` a plain ``SparkSession.builder.getOrCreate()`` gets colsem too
(``COLSEM_AUTOREGISTER=0`` turns that off). This module imports nothing heavy: it runs at every
interpreter start-up through colsem_autoregister.pth.
"""

from __future__ import annotations

from ._build import BuildInfo, ColsemError, build_info, jar_path
from ._configure import ColsemConnectError, configure, connect_instructions
from ._respond import ColsemResponseError, respond, respond_iter, respond_text
from ._status import status
from ._versions import UnsupportedSparkVersion, check_pyspark_version

EXTENSION_CLASS = "io.colsem.ColsemExtensions"


def maven_coordinate() -> str:
    """``group:artifact:version`` of the jar, for ``spark-submit --packages``."""
    return build_info().maven_coordinate


def __getattr__(name: str) -> str:
    if name == "__version__":
        return build_info().version
    raise AttributeError(name)


__all__ = [
    "BuildInfo", "ColsemConnectError", "ColsemError", "ColsemResponseError", "EXTENSION_CLASS", "UnsupportedSparkVersion",
    "build_info", "check_pyspark_version", "configure", "connect_instructions", "jar_path",
    "maven_coordinate", "respond", "respond_iter", "respond_text", "status",
]
