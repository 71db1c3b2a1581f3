"""Compile colsem's Scala sources into one jar per Spark line, for the Python package and Maven.

Used three ways, all through :func:`build_jars`:
  * the hatch build hook (``pip install .``, ``python -m build``): every line, see ``hatch_hooks.py``;
  * ``make jar`` -- ``python python/build_jar.py [--line L ...]``;
  * ``make smoke`` -- ``--publish-m2 REPO --line L``: the line's jar and a POM into a local Maven
    repository (what ``sbt publishM2`` publishes, without compiling the line a second time);
  * ``make dist`` -- :func:`publish_bundle` (through ``python/release.py``): the jar, its
    ``-sources`` and ``-javadoc`` jars (scaladoc), the POM and their checksums, as Maven Central
    takes them;
  * the tests and build.sbt helpers, which read :func:`read_versions` and :func:`line_versions`.

Lines and their versions come from ``jvm/versions.properties``. Line L compiles
``jvm/src/main/scala`` plus the folders ``line.L.shims`` names under ``jvm/src/main/shims/``, with
the scalac options of ``jvm/compile.properties`` (folders and options build.sbt reads too) and
the Scala compiler and Spark jars of pyspark ``line.L.spark.version``. Those jars are found, in
this order: ``$COLSEM_SPARK_JARS_<L>`` (``L`` with ``_`` for ``.``, e.g. ``COLSEM_SPARK_JARS_3_5``);
``$COLSEM_SPARK_JARS`` when it holds that Spark version; the pyspark installed in this Python when
it is that version; the colsem cache (``$COLSEM_CACHE_DIR``, default ``~/.cache/colsem``); else
pyspark is downloaded from PyPI with pip into that cache once (a few hundred MB a line) and only
its ``jars`` folder is kept. No sbt, no Maven. A jar whose recorded source fingerprint matches the
sources is reused.

Default lines: every line in ``lines=`` (a wheel carries them all). ``--line`` (repeatable, or
comma separated) builds fewer, e.g. ``--line 4.3`` for a quick local rebuild.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

# The build's interpreter has packaging: hatchling requires it (and pyproject.toml's build-system).
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
VERSIONS_FILE = ROOT / "jvm" / "versions.properties"
# URLs, SCM, licence and developers for the POMs and the wheel's metadata.
PROJECT_FILE = ROOT / "jvm" / "project.properties"
# Source folders and scalac options of every line, as build.sbt compiles them.
COMPILE_FILE = ROOT / "jvm" / "compile.properties"
# Scaladoc of each line's sources, reused while the sources are unchanged (make dist).
JAVADOC_DIR = ROOT / "build" / "javadoc"
BUILD_PROPERTIES = "io/colsem/colsem-build.properties"
JAR_DIR = ROOT / "python" / "colsem" / "jars"
EXTENSION_CLASS = "io.colsem.ColsemExtensions"
# Keys of one line's flat view (line_versions) that go into the jar's colsem-build.properties.
RECORDED_KEYS = [
    "colsem.version",
    "spark.version",
    "spark.line",
    "scala.binary",
    "pyspark.supported",
]


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


def _log(message: str) -> None:
    print(f"[colsem build] {message}", file=sys.stderr, flush=True)


def check_java() -> str:
    """The java executable, after checking it is Java 17 or newer."""
    java_home = os.environ.get("JAVA_HOME")
    java = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java")
    if not java or not Path(java).exists():
        raise JarBuildError(
            "Java 17 is needed to build colsem's jar and to run Spark, and no `java` was found. "
            "Install it (Debian/Ubuntu: `apt-get install openjdk-17-jdk-headless`) or set JAVA_HOME."
        )
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    match = re.search(r'version "(\d+)', out)
    if not match or int(match.group(1)) < 17:
        raise JarBuildError(
            f"Java 17 or newer is needed, but {java} reports: {out.strip().splitlines()[0]}. "
            "Install OpenJDK 17 (`apt-get install openjdk-17-jdk-headless`) or point JAVA_HOME at it."
        )
    return java


# ---------------------------------------------------------------------------------------------
# Spark's jars for a line


def cache_dir() -> Path:
    """Where downloaded pyspark distributions and their jars are kept."""
    override = os.environ.get("COLSEM_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "colsem"


def installed_pyspark() -> Path | None:
    """The folder of the pyspark package this Python would import (not imported: cheap)."""
    import importlib.util

    spec = importlib.util.find_spec("pyspark")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def installed_pyspark_version() -> str | None:
    folder = installed_pyspark()
    if folder is None or not (folder / "version.py").is_file():
        return None
    match = re.search(
        r"""__version__[^=]*=\s*["']([^"']+)["']""", (folder / "version.py").read_text()
    )
    return match.group(1) if match else None


def spark_version_of(folder: Path, scala_binary: str) -> str | None:
    """The Spark version whose spark-core jar ``folder`` holds, or None."""
    prefix = f"spark-core_{scala_binary}-"
    for jar in folder.glob(f"{prefix}*.jar"):
        return jar.name[len(prefix) : -len(".jar")]
    return None


def _holds(folder: Path, lv: dict[str, str]) -> bool:
    return folder.is_dir() and spark_version_of(folder, lv["scala.binary"]) == lv["spark.version"]


def _download_pyspark(version: str, into: Path) -> Path:
    """pip-download pyspark==version (no dependencies) into ``into``; return the archive."""
    into.mkdir(parents=True, exist_ok=True)
    existing = sorted(into.glob(f"pyspark-{version}.tar.gz")) + sorted(
        into.glob(f"pyspark-{version}-*.whl")
    )
    if existing:
        return existing[0]
    _log(f"downloading pyspark {version} from PyPI into {into} (once; a few hundred MB) ...")
    started = time.monotonic()
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--disable-pip-version-check",
        "--progress-bar",
        "on" if sys.stderr.isatty() else "off",
        "-d",
        str(into),
        f"pyspark=={version}",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for out in proc.stdout:  # pip's own lines, prefixed, as progress
        out = out.rstrip()
        if out:
            _log(f"  pip: {out}")
    if proc.wait() != 0:
        raise JarBuildError(
            f"`pip download pyspark=={version}` failed (see above). colsem compiles each Spark line "
            f"against that line's pyspark jars: check the network, or point COLSEM_SPARK_JARS_"
            f"<line> at a folder of Spark {version} jars."
        )
    found = sorted(into.glob(f"pyspark-{version}.tar.gz")) + sorted(
        into.glob(f"pyspark-{version}-*.whl")
    )
    if not found:
        raise JarBuildError(f"pip downloaded no pyspark-{version} archive into {into}.")
    size = found[0].stat().st_size / 1e6
    _log(f"downloaded {found[0].name} ({size:.0f} MB) in {time.monotonic() - started:.0f}s")
    return found[0]


def _extract_jars(archive: Path, target: Path) -> None:
    """Copy only the jars folder of a pyspark sdist (``*/deps/jars``) or wheel (``pyspark/jars``)."""
    tmp = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        if archive.name.endswith(".whl"):
            with zipfile.ZipFile(archive) as zf:
                for name in zf.namelist():
                    if name.startswith("pyspark/jars/") and name.endswith(".jar"):
                        (tmp / Path(name).name).write_bytes(zf.read(name))
        else:
            with tarfile.open(archive) as tf:
                for member in tf:
                    parts = member.name.split("/")
                    if (
                        member.isfile()
                        and len(parts) == 4
                        and parts[1:3] == ["deps", "jars"]
                        and parts[3].endswith(".jar")
                    ):
                        source = tf.extractfile(member)
                        assert source is not None
                        with source, open(tmp / parts[3], "wb") as out:
                            shutil.copyfileobj(source, out)
        if not any(tmp.glob("spark-core_*.jar")):
            raise JarBuildError(
                f"{archive} has no Spark jars (no spark-core_*.jar in its jars folder)."
            )
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def find_spark_jars(lv: dict[str, str], download: bool = True) -> Path:
    """The folder of Spark ``lv['spark.version']``'s jars (see the module docstring for the order)."""
    line, version = lv["spark.line"], lv["spark.version"]
    per_line = os.environ.get(f"COLSEM_SPARK_JARS_{line.replace('.', '_')}")
    if per_line:
        if not _holds(Path(per_line), lv):
            raise JarBuildError(
                f"COLSEM_SPARK_JARS_{line.replace('.', '_')}={per_line} does not hold Spark {version} "
                f"(found {spark_version_of(Path(per_line), lv['scala.binary']) or 'no spark-core'})."
            )
        return Path(per_line)
    candidates = []
    if os.environ.get("COLSEM_SPARK_JARS"):
        candidates.append(Path(os.environ["COLSEM_SPARK_JARS"]))
    pyspark = installed_pyspark()
    if pyspark is not None:
        candidates.append(pyspark / "jars")
    cached = cache_dir() / "spark-jars" / version
    candidates.append(cached)
    for folder in candidates:
        if _holds(folder, lv):
            return folder
    if not download:
        raise JarBuildError(
            f"No Spark {version} jars found (looked in {', '.join(map(str, candidates))})."
        )
    archive = _download_pyspark(version, cache_dir() / "downloads")
    cached.parent.mkdir(parents=True, exist_ok=True)
    _extract_jars(archive, cached)
    archive.unlink()  # only the jars are needed; the distribution would double the cache's size
    if not _holds(cached, lv):
        raise JarBuildError(
            f"{archive} does not hold Spark {version}'s spark-core_{lv['scala.binary']} jar."
        )
    _log(f"Spark {version} jars cached in {cached}")
    return cached


# ---------------------------------------------------------------------------------------------
# Compiling one line


def shim_folders(lv: dict[str, str]) -> list[Path]:
    names = [n.strip() for n in lv["shims"].split(",") if n.strip()]
    folders = [SHIMS_DIR / n for n in names]
    for folder in folders:
        if not folder.is_dir():
            raise JarBuildError(
                f"line.{lv['spark.line']}.shims names {folder.relative_to(ROOT)}, which does not exist."
            )
    return folders


def source_roots(lv: dict[str, str]) -> list[Path]:
    return [SOURCES_DIR] + shim_folders(lv)


def _sources(lv: dict[str, str]) -> list[Path]:
    return [p for root in source_roots(lv) for p in sorted(root.rglob("*.scala"))]


def _resources() -> list[Path]:
    return sorted(p for p in RESOURCES_DIR.rglob("*") if p.is_file())


def source_fingerprint(files: Iterable[Path], lv: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for key in sorted(lv):
        digest.update(f"{key}={lv[key]}\0".encode())
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def read_jar_properties(jar: Path) -> dict[str, str]:
    """The jar's colsem-build.properties ({} when it has none)."""
    try:
        with zipfile.ZipFile(jar) as zf:
            text = zf.read(BUILD_PROPERTIES).decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile):
        return {}
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def build_properties(lv: dict[str, str], fingerprint: str) -> str:
    lines = [f"{k}={lv[k]}" for k in RECORDED_KEYS] + [f"source.fingerprint={fingerprint}"]
    return "\n".join(lines) + "\n"


def scalac_options(lv: dict[str, str]) -> list[str]:
    """compile.properties' options for every line, then those of the line's Scala binary."""
    return (
        COMPILE["scalac.options"].split()
        + COMPILE.get(f"scalac.options.{lv['scala.binary']}", "").split()
    )


def _compiler_jars(spark_jars: Path, lv: dict[str, str]) -> list[Path]:
    """The Scala compiler inside the line's pyspark: scalac's and scaladoc's class path."""
    scala = lv["scala.version"]
    compiler = [
        spark_jars / f"scala-{name}-{scala}.jar" for name in ("compiler", "library", "reflect")
    ]
    missing = [p.name for p in compiler if not p.exists()]
    if missing:
        raise JarBuildError(
            f"{spark_jars} has no {', '.join(missing)}: line.{lv['spark.line']}.scala.version in "
            f"jvm/versions.properties must be the Scala inside pyspark {lv['spark.version']} "
            f"(found {', '.join(p.name for p in spark_jars.glob('scala-library-*.jar'))})."
        )
    return compiler


def _compile(
    java: str, spark_jars: Path, lv: dict[str, str], sources: list[Path], out: Path
) -> None:
    scala = lv["scala.version"]
    compiler = _compiler_jars(spark_jars, lv)
    cmd = [
        java,
        "-Xss8m",
        "-cp",
        os.pathsep.join(map(str, compiler)),
        "scala.tools.nsc.Main",
        *scalac_options(lv),
        "-classpath",
        str(spark_jars / "*"),
        "-d",
        str(out),
    ] + [str(s) for s in sources]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise JarBuildError(
            f"scalac (Spark {lv['spark.line']}, Scala {scala}) failed:\n"
            + (result.stdout + result.stderr).strip()
        )


def _write_jar(jar: Path, classes: Path, lv: dict[str, str], fingerprint: str) -> None:
    tmp = jar.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("META-INF/MANIFEST.MF", _manifest(lv))
        for path in sorted(classes.rglob("*.class")):
            zf.write(path, str(path.relative_to(classes)))
        for path in _resources():
            zf.write(path, str(path.relative_to(RESOURCES_DIR)))
        _write_license_files(zf)
        zf.writestr(BUILD_PROPERTIES, build_properties(lv, fingerprint))
    tmp.replace(jar)


def _manifest(lv: dict[str, str]) -> str:
    return (
        f"Manifest-Version: 1.0\nImplementation-Title: {artifact_id(lv)}\n"
        f"Implementation-Version: {lv['colsem.version']}\n"
        f"Implementation-Vendor: {lv['maven.group']}\n\n"
    )


def _write_license_files(zf: zipfile.ZipFile) -> None:
    for path in LICENSE_FILES:
        if not path.is_file():
            raise JarBuildError(
                f"{path.relative_to(ROOT)} is missing: every jar carries it in META-INF."
            )
        zf.write(path, f"META-INF/{path.name}")


def build_line(line: str, out_dir: Path = JAR_DIR, force: bool = False) -> Path:
    """Build (or reuse) line ``line``'s jar in ``out_dir``."""
    lv = line_versions(read_versions(), line)
    sources = _sources(lv)
    fingerprint = source_fingerprint(
        sources + _resources() + LICENSE_FILES + [COMPILE_FILE, Path(__file__).resolve()], lv
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = out_dir / jar_name(lv)
    if (
        not force
        and jar.exists()
        and read_jar_properties(jar).get("source.fingerprint") == fingerprint
    ):
        _log(f"{jar.name} is up to date")
        return jar
    java = check_java()
    spark_jars = find_spark_jars(lv)
    _log(
        f"compiling {len(sources)} Scala files for Spark {line} against Spark {lv['spark.version']} "
        f"(Scala {lv['scala.version']}, jars in {spark_jars}) ..."
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="colsem-classes-") as classes:
        _compile(java, spark_jars, lv, sources, Path(classes))
        _write_jar(jar, Path(classes), lv, fingerprint)
    _log(
        f"wrote {jar.relative_to(ROOT) if jar.is_relative_to(ROOT) else jar} "
        f"in {time.monotonic() - started:.1f}s"
    )
    return jar


def jar_record(jar: Path) -> dict[str, str]:
    """build.json's entry for one jar, from the jar's own colsem-build.properties."""
    props = read_jar_properties(jar)
    lv = line_versions(read_versions(), props["spark.line"])
    return {
        "jar": jar.name,
        "spark_version": props["spark.version"],
        "spark_line": props["spark.line"],
        "scala_binary": props["scala.binary"],
        "pyspark_supported": props["pyspark.supported"],
        "maven_coordinate": maven_coordinate(lv),
    }


def write_build_json(out_dir: Path, jars: Sequence[Path]) -> Path:
    """build.json: the package's version and one entry per bundled jar (oldest line first)."""
    versions = read_versions()
    records = sorted((jar_record(j) for j in jars), key=lambda r: Version(r["spark_line"]))
    info = {
        "version": versions["colsem.version"],
        "extension_class": EXTENSION_CLASS,
        "pyspark_supported": supported_union(versions, [r["spark_line"] for r in records]),
        "jars": records,
    }
    path = out_dir / "build.json"
    # Written aside and renamed: two builds of the tree at once (a test's wheel beside another's)
    # must never let one package a half-written file.
    partial = path.with_name(f".build.json.{os.getpid()}")
    partial.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path


def build_jars(
    lines: Sequence[str] | None = None, out_dir: Path = JAR_DIR, force: bool = False
) -> list[Path]:
    """Build every line in ``lines`` (default: all) into ``out_dir`` and write build.json listing
    the jars there. Jars of other lines already in ``out_dir`` stay (and stay listed) so
    ``--line 4.3`` rebuilds one jar of a multi-line package."""
    versions = read_versions()
    wanted = list(lines) if lines else all_lines(versions)
    built = [build_line(line, out_dir, force) for line in wanted]
    current = {jar_name(line_versions(versions, line)) for line in all_lines(versions)}
    for stale in out_dir.glob("*.jar"):
        if stale.name not in current or not read_jar_properties(stale):
            stale.unlink()
    if lines:
        listed = sorted(out_dir.glob("*.jar"))
    else:
        listed = built
        for other in out_dir.glob("*.jar"):
            if other not in built:
                other.unlink()
    write_build_json(out_dir, listed)
    return built


def read_project() -> dict[str, str]:
    """project.properties: the project's URLs, SCM, licence and developers."""
    return read_versions(PROJECT_FILE)


def pom(lv: dict[str, str]) -> str:
    """The POM of a line's artifact, with what Maven Central requires (name, description, url,
    licenses, scm, developers; from project.properties) and no dependencies: Spark provides Spark
    and Scala, and a POM that listed them would make `spark-submit --packages` fetch them again."""
    p = {key: html.escape(value) for key, value in read_project().items()}
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <groupId>{lv["maven.group"]}</groupId>
    <artifactId>{artifact_id(lv)}</artifactId>
    <version>{lv["colsem.version"]}</version>
    <packaging>jar</packaging>
    <name>colsem-spark-{lv["spark.line"]}</name>
    <description>{pom_description(lv)}</description>
    <url>{p["project.url"]}</url>
    <licenses>
        <license>
            <name>{p["license.name"]}</name>
            <url>{p["license.url"]}</url>
            <distribution>repo</distribution>
        </license>
    </licenses>
    <scm>
        <url>{p["scm.url"]}</url>
        <connection>{p["scm.connection"]}</connection>
        <developerConnection>{p["scm.developerConnection"]}</developerConnection>
    </scm>
    <developers>
        <developer>
            <id>{p["developer.id"]}</id>
            <name>{p["developer.name"]}</name>
            <url>{p["developer.url"]}</url>
        </developer>
    </developers>
</project>
"""


def pom_description(lv: dict[str, str]) -> str:
    """The POM's description (escaped for XML); build.sbt writes the same."""
    return html.escape(
        f"{read_project()['pom.description']} Built for Apache Spark {lv['spark.line']} "
        f"(Scala {lv['scala.binary']})."
    )


def maven_folder(repo: Path, lv: dict[str, str]) -> Path:
    """Where a line's artifact lives in the Maven repository ``repo``."""
    return repo.joinpath(*lv["maven.group"].split("."), artifact_id(lv), lv["colsem.version"])


def publish_m2(line: str, repo: Path) -> Path:
    """Builds (or reuses) a line's jar and puts it with its POM into the Maven repository ``repo``
    (the layout ``sbt publishM2`` writes); returns the folder."""
    lv = line_versions(read_versions(), line)
    jar = build_line(line)
    folder = maven_folder(repo, lv)
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    shutil.copyfile(jar, folder / f"{stem}.jar")
    (folder / f"{stem}.pom").write_text(pom(lv), encoding="utf-8")
    _log(f"published {maven_coordinate(lv)} to {repo}")
    return folder


# ---------------------------------------------------------------------------------------------
# Maven Central bundles: the jar, its sources and javadoc jars, the POM, and their checksums

# The files of one artifact's bundle, by what follows ``<artifactId>-<version>``.
BUNDLE_SUFFIXES = (".jar", "-sources.jar", "-javadoc.jar", ".pom")
# Maven Central wants an .md5 and a .sha1 beside each of them (signatures, .asc, are the releaser's).
CHECKSUM_ALGORITHMS = ("md5", "sha1")


def bundle_files(lv: dict[str, str]) -> list[str]:
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    return [stem + suffix for suffix in BUNDLE_SUFFIXES]


def checksum(path: Path, algorithm: str) -> str:
    return hashlib.new(algorithm, path.read_bytes()).hexdigest()


def write_sources_jar(lv: dict[str, str], jar: Path) -> Path:
    """The Scala sources line ``lv`` compiles (shared and shims, by package path) and resources."""
    written: dict[str, Path] = {}
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("META-INF/MANIFEST.MF", _manifest(lv))
        _write_license_files(zf)
        for root, path in [(r, p) for r in source_roots(lv) for p in sorted(r.rglob("*.scala"))] + [
            (RESOURCES_DIR, p) for p in _resources()
        ]:
            name = str(path.relative_to(root))
            if name in written:
                raise JarBuildError(
                    f"{path.relative_to(ROOT)} and {written[name].relative_to(ROOT)} "
                    f"are both {name} in Spark {lv['spark.line']}'s sources."
                )
            written[name] = path
            zf.write(path, name)
    return jar


def _scaladoc(
    java: str, spark_jars: Path, lv: dict[str, str], sources: list[Path], out: Path
) -> None:
    # Scaladoc's HTML writer needs scala-xml beside the compiler on Scala 2.12; pyspark ships it.
    tools = _compiler_jars(spark_jars, lv) + sorted(
        spark_jars.glob(f"scala-xml_{lv['scala.binary']}-*.jar")
    )
    cmd = [
        java,
        "-Xss8m",
        "-cp",
        os.pathsep.join(map(str, tools)),
        "scala.tools.nsc.ScalaDoc",
        "-doc-title",
        artifact_id(lv),
        "-doc-version",
        lv["colsem.version"],
        "-classpath",
        str(spark_jars / "*"),
        "-d",
        str(out),
    ] + [str(s) for s in sources]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0 or not (out / "index.html").is_file():
        raise JarBuildError(
            f"scaladoc (Spark {lv['spark.line']}, Scala {lv['scala.version']}) failed:\n"
            + (result.stdout + result.stderr).strip()
        )


def build_javadoc_jar(lv: dict[str, str], out_dir: Path = JAVADOC_DIR) -> Path:
    """The scaladoc of line ``lv``'s sources as its ``-javadoc`` jar, in ``out_dir``; reused while
    the sources are unchanged (the zip comment records their fingerprint)."""
    sources = _sources(lv)
    fingerprint = source_fingerprint(sources + LICENSE_FILES + [Path(__file__).resolve()], lv)
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = out_dir / f"{artifact_id(lv)}-{lv['colsem.version']}-javadoc.jar"
    if jar.exists():
        with zipfile.ZipFile(jar) as zf:
            if zf.comment.decode() == fingerprint:
                _log(f"{jar.name} is up to date")
                return jar
    java = check_java()
    spark_jars = find_spark_jars(lv)
    _log(f"scaladoc of {len(sources)} Scala files for Spark {lv['spark.line']} ...")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="colsem-doc-") as docs:
        _scaladoc(java, spark_jars, lv, sources, Path(docs))
        tmp = jar.with_suffix(".tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("META-INF/MANIFEST.MF", _manifest(lv))
            _write_license_files(zf)
            for path in sorted(p for p in Path(docs).rglob("*") if p.is_file()):
                zf.write(path, str(path.relative_to(docs)))
            zf.comment = fingerprint.encode()
        tmp.replace(jar)
    _log(f"wrote {jar.name} in {time.monotonic() - started:.1f}s")
    return jar


def publish_bundle(line: str, repo: Path) -> Path:
    """A line's Maven Central bundle in the Maven repository ``repo``: what :func:`publish_m2` puts
    there plus the ``-sources`` and ``-javadoc`` jars and an .md5 and .sha1 for each file."""
    folder = publish_m2(line, repo)
    lv = line_versions(read_versions(), line)
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    write_sources_jar(lv, folder / f"{stem}-sources.jar")
    shutil.copyfile(build_javadoc_jar(lv), folder / f"{stem}-javadoc.jar")
    for name in bundle_files(lv):
        for algorithm in CHECKSUM_ALGORITHMS:
            (folder / f"{name}.{algorithm}").write_text(
                checksum(folder / name, algorithm), encoding="ascii"
            )
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--line",
        action="append",
        default=[],
        help="Spark line to build (repeatable or comma separated; default: every line)",
    )
    parser.add_argument(
        "--force", action="store_true", help="rebuild even if the jar is up to date"
    )
    parser.add_argument(
        "--out", type=Path, default=JAR_DIR, help="output folder (default: %(default)s)"
    )
    parser.add_argument(
        "--spark-jars",
        metavar="LINE",
        help="print the folder of LINE's Spark jars "
        "(downloading them if needed) and exit; build.sbt and the Makefile use it",
    )
    parser.add_argument(
        "--publish-m2",
        metavar="REPO",
        type=Path,
        help="put each --line's jar and POM into the local Maven repository REPO and exit",
    )
    parser.add_argument(
        "--get", metavar="KEY", help="print one line's value of KEY (with --line) and exit"
    )
    args = parser.parse_args(argv)
    lines = [name.strip() for item in args.line for name in item.split(",") if name.strip()]
    try:
        versions = read_versions()
        if args.spark_jars:
            print(find_spark_jars(line_versions(versions, args.spark_jars)))
            return 0
        if args.publish_m2:
            if not lines:
                raise JarBuildError("--publish-m2 needs --line: the lines to publish")
            for line in lines:
                print(publish_m2(line, args.publish_m2))
            return 0
        if args.get:
            print(line_versions(versions, lines[0] if lines else default_line(versions))[args.get])
            return 0
        for jar in build_jars(lines or None, args.out, force=args.force):
            print(jar)
    except JarBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
