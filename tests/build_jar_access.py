"""Gives tests the build script's helpers (python/build_jar.py is not part of the package)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

import build_jar  # noqa: E402

read_versions = build_jar.read_versions


def compile_scala(sources: List[Path], spark_jars: Path, jar: Path) -> Path:
    """Compile Scala sources against Spark's jars into ``jar`` (for test-only extensions)."""
    versions = read_versions()
    java = build_jar.check_java()
    with tempfile.TemporaryDirectory() as classes:
        build_jar._compile(java, spark_jars, versions, sources, Path(classes))
        with zipfile.ZipFile(jar, "w") as zf:
            for path in Path(classes).rglob("*.class"):
                zf.write(path, str(path.relative_to(classes)))
    return jar
