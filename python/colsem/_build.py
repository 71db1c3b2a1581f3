"""What the bundled jar is: read from jars/build.json, written beside the jar by the build."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

JARS_DIR = Path(__file__).resolve().parent / "jars"


class ColsemError(RuntimeError):
    """Base class of colsem's Python-side errors."""


@dataclass(frozen=True)
class BuildInfo:
    jar: str
    version: str
    spark_version: str
    spark_line: str
    scala_binary: str
    pyspark_supported: str
    maven_coordinate: str
    extension_class: str


@lru_cache(maxsize=1)
def build_info() -> BuildInfo:
    path = JARS_DIR / "build.json"
    if not path.exists():
        raise ColsemError(
            f"{path} is missing: this colsem install has no jar. Install colsem from a wheel or "
            "with `pip install .` (which compiles the jar), or run `make jar` in a checkout.")
    return BuildInfo(**json.loads(path.read_text(encoding="utf-8")))


def jar_path() -> str:
    """Absolute path of the colsem jar inside this package, for spark.jars or --jars."""
    jar = JARS_DIR / build_info().jar
    if not jar.exists():
        raise ColsemError(f"{jar} is missing; reinstall colsem.")
    return str(jar)
