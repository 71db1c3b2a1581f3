"""Which pyspark versions the bundled jar supports (a PEP 440 specifier from the build)."""

from __future__ import annotations

import re
from typing import List, Tuple

from ._build import ColsemError, build_info


class UnsupportedSparkVersion(ColsemError):
    """The running pyspark is not a version the bundled jar was built for."""


def _parse(version: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def _clauses(spec: str) -> List[Tuple[str, Tuple[int, ...]]]:
    return [(m.group(1), _parse(m.group(2))) for m in re.finditer(r"(>=|<=|==|<|>)\s*([\d.]+)", spec)]


def is_supported(version: str, spec: str) -> bool:
    ops = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
           "<": lambda a, b: a < b, ">": lambda a, b: a > b}
    running = _parse(version)
    return all(ops[op](running, bound) for op, bound in _clauses(spec))


def check_pyspark_version(version: str | None = None) -> str:
    """Return the pyspark version, or raise UnsupportedSparkVersion listing what is supported."""
    if version is None:
        import pyspark

        version = pyspark.__version__
    info = build_info()
    if not is_supported(version, info.pyspark_supported):
        raise UnsupportedSparkVersion(
            f"colsem {info.version} supports pyspark {info.pyspark_supported} (Spark "
            f"{info.spark_line}, Scala {info.scala_binary}) but pyspark {version} is installed. "
            f"Install a supported pyspark (pip install 'pyspark{info.pyspark_supported}') or a "
            "colsem build for your Spark line.")
    return version
