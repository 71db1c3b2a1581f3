"""Gives tests the build scripts under buildtools/ (build_versions, spark_jars, build_jar,
maven_bundle, release, scala_format), which are not part of the package."""

from __future__ import annotations

import sys
import tempfile
import zipfile
from pathlib import Path

# Appended, not prepended: the tests import the installed package and its dependencies first
# (tests/conftest.py checks under `make dist-check`).
sys.path.append(str(Path(__file__).resolve().parent.parent / "buildtools"))

import build_jar
import build_versions
import dist_problems  # noqa: F401  (buildtools/dist_problems.py: make dist-check's archive checks)
import maven_bundle  # noqa: F401  (buildtools/maven_bundle.py: the POM, make smoke's m2, bundles)
import release  # noqa: F401  (buildtools/release.py: make dist, make dist-check)
import scala_format  # noqa: F401  (buildtools/scala_format.py: make fmt, make lint)
import spark_jars  # noqa: F401  (buildtools/spark_jars.py: a line's Spark jars)
from golden import running_line  # noqa: F401  (the tests' one definition)
from spark_jars import spark_version_of

read_versions = build_versions.read_versions
line_versions = build_versions.line_versions


def compile_scala(sources: list[Path], jars: Path, jar: Path) -> Path:
    """Compile Scala sources against Spark's jars into ``jar`` (for test-only extensions), with the
    Scala compiler of the line those jars are."""
    versions = read_versions()
    # The line by the jars' Spark version (any release of it: the formats venv has an older 4.1),
    # the Scala compiler that release ships.
    lv = next(
        lv
        for lv in (line_versions(versions, line) for line in build_versions.all_lines(versions))
        if (spark_version_of(jars, lv["scala.binary"]) or "").startswith(lv["spark.line"] + ".")
    )
    library = next(jars.glob("scala-library-*.jar")).name
    lv = {**lv, "scala.version": library[len("scala-library-") : -len(".jar")]}
    java = build_jar.check_java()
    with tempfile.TemporaryDirectory() as classes:
        build_jar.compile_classes(java, jars, lv, sources, Path(classes))
        with zipfile.ZipFile(jar, "w") as zf:
            for path in Path(classes).rglob("*.class"):
                zf.write(path, str(path.relative_to(classes)))
    return jar
