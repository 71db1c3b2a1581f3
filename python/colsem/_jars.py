"""Chooses, at run time, the bundled jar for the running pyspark: jars/build.json (written beside
the jars by the build) lists one jar per Spark line, each with its pyspark range."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

JARS_DIR = Path(__file__).resolve().parent / "jars"


class ColsemError(RuntimeError):
    """Base class of colsem's Python-side errors."""


class UnsupportedSparkVersion(ColsemError):
    """The running pyspark is on no Spark line colsem carries a jar for."""


@dataclass(frozen=True)
class BuildInfo:
    """One bundled jar: what it was built for and how to reach it."""

    jar: str
    version: str
    spark_version: str
    spark_line: str
    scala_binary: str
    pyspark_supported: str
    maven_coordinate: str
    extension_class: str


@lru_cache(maxsize=1)
def _package() -> dict[str, Any]:
    path = JARS_DIR / "build.json"
    if not path.exists():
        raise ColsemError(
            f"{path} is missing: this colsem install has no jar. Install colsem from a wheel or "
            "with `pip install .` (which compiles the jars), or run `make jar` in a checkout."
        )
    info: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return info


def package_version() -> str:
    return str(_package()["version"])


def pyspark_supported() -> str:
    """The pyspark versions (PEP 440) some bundled jar runs on: the wheel's pyspark requirement."""
    return str(_package()["pyspark_supported"])


def builds() -> list[BuildInfo]:
    """Every bundled jar, oldest Spark line first."""
    package = _package()
    return [
        BuildInfo(version=package["version"], extension_class=package["extension_class"], **jar)
        for jar in package["jars"]
    ]


def _parse(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def _clauses(spec: str) -> list[tuple[str, str]]:
    return [
        (m.group(1), m.group(2))
        for m in re.finditer(r"(>=|<=|==|!=|<|>)\s*(\d+(?:\.\d+)*(?:\.\*)?)", spec)
    ]


def is_supported(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies the PEP 440 specifier set ``spec`` (the subset colsem writes:
    >=, <=, ==, <, > and !=X.Y.*; pre-releases count as their release, so 4.3.0.dev1 is 4.3).

    Not packaging's SpecifierSet: colsem has no required dependency (it installs beside
    pyspark-client), and packaging comes with neither pyspark. This is the one matcher; the build
    (buildtools/build_versions.py) writes ranges with packaging, and tests/test_version_matrix.py
    holds this to packaging's answers."""
    running = _parse(version)
    ops = {
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        "==": lambda a, b: a == b,
        "<": lambda a, b: a < b,
        ">": lambda a, b: a > b,
    }
    for op, bound in _clauses(spec):
        if op == "!=" and bound.endswith(".*"):
            prefix = _parse(bound[:-2])
            if running[: len(prefix)] == prefix:
                return False
        elif op == "!=":
            if running == _parse(bound):
                return False
        elif not ops[op](running, _parse(bound)):
            return False
    return True


def running_pyspark_version() -> str:
    try:
        import pyspark
    except ImportError:
        raise UnsupportedSparkVersion(
            "pyspark is not installed. `pip install 'colsem[pyspark]'` installs a pyspark colsem "
            f"carries a jar for (pyspark{pyspark_supported()}); a Spark Connect client needs only "
            "pyspark-client."
        ) from None
    return str(pyspark.__version__)


def build_for(pyspark_version: str) -> BuildInfo | None:
    """The bundled jar for that pyspark version, or None."""
    for info in builds():
        if is_supported(pyspark_version, info.pyspark_supported):
            return info
    return None


def unsupported_message(version: str) -> str:
    lines = ", ".join(
        f"{b.spark_line} (pyspark {b.pyspark_supported}, Scala {b.scala_binary})" for b in builds()
    )
    return (
        f"colsem {package_version()} carries jars for Spark {lines} but pyspark {version} is "
        f"installed. Install a supported pyspark (pip install 'pyspark{pyspark_supported()}') or "
        "a colsem build for your Spark line."
    )


def build_info(pyspark_version: str | None = None) -> BuildInfo:
    """The jar for the running pyspark (or for ``pyspark_version``); UnsupportedSparkVersion when
    no bundled jar is for its line."""
    version = pyspark_version or running_pyspark_version()
    info = build_for(version)
    if info is None:
        raise UnsupportedSparkVersion(unsupported_message(version))
    return info


def jar_path(pyspark_version: str | None = None) -> str:
    """Absolute path of the colsem jar for the running pyspark, for spark.jars or --jars."""
    jar = JARS_DIR / build_info(pyspark_version).jar
    if not jar.exists():
        raise ColsemError(f"{jar} is missing; reinstall colsem.")
    return str(jar)


def check_pyspark_version(version: str | None = None) -> str:
    """Return the pyspark version, or raise UnsupportedSparkVersion listing what is supported."""
    version = version or running_pyspark_version()
    build_info(version)
    return version
