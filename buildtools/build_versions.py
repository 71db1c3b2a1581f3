"""The build's reading of ``jvm/versions.properties``, ``jvm/project.properties`` and
``jvm/compile.properties``: each Spark line's versions and Maven names, and the lines' pyspark
ranges as one PEP 440 specifier set, for every build script (and the tests).

Line L's view (:func:`line_versions`) flattens ``line.L.*`` beside the keys every line shares;
build.sbt reads the same files itself.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

# The build's interpreter has packaging: hatchling requires it (and pyproject.toml's build-system).
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
VERSIONS_FILE = ROOT / "jvm" / "versions.properties"
# URLs, SCM, licence and developers for the POM and the wheel's metadata.
PROJECT_FILE = ROOT / "jvm" / "project.properties"
# Source folders and scalac options of every line, as build.sbt compiles them.
COMPILE_FILE = ROOT / "jvm" / "compile.properties"


class JarBuildError(RuntimeError):
    """The jar cannot be built; the message says what is missing and how to get it."""


def read_versions(path: Path = VERSIONS_FILE) -> dict[str, str]:
    """``key=value`` lines of versions.properties, or of another properties file such as
    project.properties ('#' comments skipped)."""
    versions: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            versions[key.strip()] = value.strip()
    return versions


# How every line compiles (jvm/compile.properties).
COMPILE = read_versions(COMPILE_FILE)
SOURCES_DIR = ROOT / COMPILE["sources.dir"]
SHIMS_DIR = ROOT / COMPILE["shims.dir"]
RESOURCES_DIR = ROOT / COMPILE["resources.dir"]
# Put into every jar's META-INF (and the wheel's and the sdist's licence files).
LICENSE_FILES = [ROOT / name for name in COMPILE["meta-inf.files"].split()]


def all_lines(versions: dict[str, str]) -> list[str]:
    """The Spark lines colsem supports, oldest first (``lines=``)."""
    return [line.strip() for line in versions["lines"].split(",") if line.strip()]


def default_line(versions: dict[str, str]) -> str:
    return versions["default.line"]


def line_versions(versions: dict[str, str], line: str) -> dict[str, str]:
    """One line's view of versions.properties, with the flat keys the build and the jar use:
    colsem.version, maven.group, spark.line, spark.version, scala.version, scala.binary,
    pyspark.supported, shims (comma list)."""
    if line not in all_lines(versions):
        raise JarBuildError(
            f"Spark line {line!r} is not one of colsem's lines ({', '.join(all_lines(versions))}); "
            "see lines= in jvm/versions.properties."
        )
    flat = {
        "colsem.version": versions["colsem.version"],
        "maven.group": versions["maven.group"],
        "spark.line": line,
    }
    for key in ("spark.version", "scala.version", "scala.binary", "pyspark.supported", "shims"):
        full = f"line.{line}.{key}"
        if full not in versions:
            raise JarBuildError(f"jvm/versions.properties has no {full}.")
        flat[key] = versions[full]
    return flat


def _bound(versions: dict[str, str], line: str, operator: str) -> str:
    """The version of the one ``operator`` clause (``>=`` or ``<``) of a line's pyspark range."""
    spec = line_versions(versions, line)["pyspark.supported"]
    bounds = [s.version for s in SpecifierSet(spec) if s.operator == operator]
    if len(bounds) != 1:
        raise JarBuildError(
            f"line.{line}.pyspark.supported={spec} in jvm/versions.properties must have one "
            f"{operator} clause (as >=4.3.0,<4.4)."
        )
    return bounds[0]


def supported_union(versions: dict[str, str], lines: Sequence[str] | None = None) -> str:
    """One PEP 440 specifier set admitting the pyspark versions of ``lines`` (default: all).

    PEP 440 has no 'or', so this is the span from the oldest line to the newest, with every
    minor line in between that colsem does not support excluded (``!=4.1.*``). Across a major
    version only the new major's skipped lines are excluded: 3.5 is the last 3.x line Spark
    released, so ``>=3.5.0,<4.4`` admits exactly 3.5 and 4.0-4.3."""
    chosen = sorted(lines or all_lines(versions), key=Version)
    clauses = [f">={_bound(versions, chosen[0], '>=')}"]
    held = sorted({Version(line).release[:2] for line in chosen})
    for (major, minor), (next_major, next_minor) in zip(held, held[1:]):
        first = minor + 1 if major == next_major else 0  # 3.5 -> 4.x: 3.6+ does not exist
        clauses += [f"!={next_major}.{m}.*" for m in range(first, next_minor)]
    clauses.append(f"<{_bound(versions, chosen[-1], '<')}")
    return ",".join(clauses)


def artifact_id(lv: dict[str, str]) -> str:
    return f"colsem-spark-{lv['spark.line']}_{lv['scala.binary']}"


def jar_name(lv: dict[str, str]) -> str:
    return f"{artifact_id(lv)}-{lv['colsem.version']}.jar"


def maven_coordinate(lv: dict[str, str]) -> str:
    return f"{lv['maven.group']}:{artifact_id(lv)}:{lv['colsem.version']}"


def read_project() -> dict[str, str]:
    """project.properties: the project's URLs, SCM, licence and developers."""
    return read_versions(PROJECT_FILE)


def log(message: str) -> None:
    """One progress line of the build, on stderr."""
    print(f"[colsem build] {message}", file=sys.stderr, flush=True)
