"""Gives tests the build scripts' helpers (python/build_jar.py, python/release.py and
python/scala_format.py are not part of the package)."""

from __future__ import annotations

import sys
import tempfile
import zipfile
from pathlib import Path

# Appended, not prepended: python/ also holds the colsem package's sources, and the tests must
# import the installed package (tests/conftest.py checks under `make dist-check`).
sys.path.append(str(Path(__file__).resolve().parent.parent / "python"))

import build_jar
import release  # noqa: F401  (python/release.py: make dist, make dist-check)
import scala_format  # noqa: F401  (python/scala_format.py: make fmt, make lint)
from golden import running_line  # noqa: F401  (the tests' one definition)

read_versions = build_jar.read_versions
line_versions = build_jar.line_versions


def compile_scala(sources: list[Path], spark_jars: Path, jar: Path) -> Path:
    """Compile Scala sources against Spark's jars into ``jar`` (for test-only extensions), with the
    Scala compiler of the line those jars are."""
    versions = read_versions()
    # The line by the jars' Spark version (any release of it: the formats venv has an older 4.1),
    # the Scala compiler that release ships.
    lv = next(
        lv
        for lv in (line_versions(versions, line) for line in build_jar.all_lines(versions))
        if (build_jar.spark_version_of(spark_jars, lv["scala.binary"]) or "").startswith(
            lv["spark.line"] + "."
        )
    )
    library = next(spark_jars.glob("scala-library-*.jar")).name
    lv = {**lv, "scala.version": library[len("scala-library-") : -len(".jar")]}
    java = build_jar.check_java()
    with tempfile.TemporaryDirectory() as classes:
        build_jar._compile(java, spark_jars, lv, sources, Path(classes))
        with zipfile.ZipFile(jar, "w") as zf:
            for path in Path(classes).rglob("*.class"):
                zf.write(path, str(path.relative_to(classes)))
    return jar
