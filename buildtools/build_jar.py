"""Compiles colsem's Scala sources into one jar per Spark line and lists the jars in build.json.

Line L compiles ``jvm/src/main/scala`` plus the folders ``line.L.shims`` names under
``jvm/src/main/shims/``, with the scalac options of ``jvm/compile.properties`` (folders and
options build.sbt reads too) and the Scala compiler and Spark jars of pyspark
``line.L.spark.version`` (``spark_jars.py`` finds them). No sbt, no Maven. A jar whose recorded
source fingerprint matches the sources is reused. The hatch build hook (``hatch_hooks.py``) and
``make jar`` (``python buildtools/build_jar.py [--line L ...]``) call :func:`build_jars`.

Default lines: every line in ``lines=`` (a wheel carries them all). ``--line`` (repeatable, or
comma separated) builds fewer, e.g. ``--line 4.3`` for a quick local rebuild.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from build_cli import add_line_option, chosen_lines, exit_code
from build_versions import (
    COMPILE,
    COMPILE_FILE,
    LICENSE_FILES,
    RESOURCES_DIR,
    ROOT,
    SHIMS_DIR,
    SOURCES_DIR,
    JarBuildError,
    all_lines,
    artifact_id,
    jar_name,
    line_versions,
    log,
    maven_coordinate,
    read_versions,
    supported_union,
)
from packaging.version import Version
from spark_jars import find_spark_jars

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


def scala_sources(lv: dict[str, str]) -> list[Path]:
    return [p for root in source_roots(lv) for p in sorted(root.rglob("*.scala"))]


def resources() -> list[Path]:
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


def compiler_jars(spark_jars: Path, lv: dict[str, str]) -> list[Path]:
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


def run_scala_tool(
    java: str,
    tools: list[Path],
    main_class: str,
    options: list[str],
    spark_jars: Path,
    sources: list[Path],
    out: Path,
) -> subprocess.CompletedProcess[str]:
    """Runs a tool of the line's Scala compiler (scalac, scaladoc) over ``sources`` with Spark's
    jars on the class path, writing into ``out``."""
    cmd = [
        java,
        "-Xss8m",
        "-cp",
        os.pathsep.join(map(str, tools)),
        main_class,
        *options,
        "-classpath",
        str(spark_jars / "*"),
        "-d",
        str(out),
    ] + [str(s) for s in sources]
    return subprocess.run(cmd, capture_output=True, text=True)


def compile_classes(
    java: str, spark_jars: Path, lv: dict[str, str], sources: list[Path], out: Path
) -> None:
    tools = compiler_jars(spark_jars, lv)
    options = scalac_options(lv)
    result = run_scala_tool(java, tools, "scala.tools.nsc.Main", options, spark_jars, sources, out)
    if result.returncode != 0:
        raise JarBuildError(
            f"scalac (Spark {lv['spark.line']}, Scala {lv['scala.version']}) failed:\n"
            + (result.stdout + result.stderr).strip()
        )


def _write_jar(jar: Path, classes: Path, lv: dict[str, str], fingerprint: str) -> None:
    tmp = jar.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest(lv))
        for path in sorted(classes.rglob("*.class")):
            zf.write(path, str(path.relative_to(classes)))
        for path in resources():
            zf.write(path, str(path.relative_to(RESOURCES_DIR)))
        write_license_files(zf)
        zf.writestr(BUILD_PROPERTIES, build_properties(lv, fingerprint))
    tmp.replace(jar)


def manifest(lv: dict[str, str]) -> str:
    return (
        f"Manifest-Version: 1.0\nImplementation-Title: {artifact_id(lv)}\n"
        f"Implementation-Version: {lv['colsem.version']}\n"
        f"Implementation-Vendor: {lv['maven.group']}\n\n"
    )


def write_license_files(zf: zipfile.ZipFile) -> None:
    for path in LICENSE_FILES:
        if not path.is_file():
            raise JarBuildError(
                f"{path.relative_to(ROOT)} is missing: every jar carries it in META-INF."
            )
        zf.write(path, f"META-INF/{path.name}")


def build_line(line: str, out_dir: Path = JAR_DIR, force: bool = False) -> Path:
    """Build (or reuse) line ``line``'s jar in ``out_dir``."""
    lv = line_versions(read_versions(), line)
    sources = scala_sources(lv)
    fingerprint = source_fingerprint(
        sources + resources() + LICENSE_FILES + [COMPILE_FILE, Path(__file__).resolve()], lv
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = out_dir / jar_name(lv)
    if (
        not force
        and jar.exists()
        and read_jar_properties(jar).get("source.fingerprint") == fingerprint
    ):
        log(f"{jar.name} is up to date")
        return jar
    java = check_java()
    spark_jars = find_spark_jars(lv)
    log(
        f"compiling {len(sources)} Scala files for Spark {line} against Spark {lv['spark.version']} "
        f"(Scala {lv['scala.version']}, jars in {spark_jars}) ..."
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="colsem-classes-") as classes:
        compile_classes(java, spark_jars, lv, sources, Path(classes))
        _write_jar(jar, Path(classes), lv, fingerprint)
    log(
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
    # Two lines at a time: scalac keeps about one core busy, and a machine of ours has two.
    with ThreadPoolExecutor(max_workers=max(1, min(2, len(wanted), os.cpu_count() or 1))) as pool:
        built = list(pool.map(lambda line: build_line(line, out_dir, force), wanted))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_line_option(
        parser, "Spark line to build (repeatable or comma separated; default: every line)"
    )
    parser.add_argument(
        "--force", action="store_true", help="rebuild even if the jar is up to date"
    )
    parser.add_argument(
        "--out", type=Path, default=JAR_DIR, help="output folder (default: %(default)s)"
    )
    args = parser.parse_args(argv)

    def act() -> None:
        for jar in build_jars(chosen_lines(args) or None, args.out, force=args.force):
            print(jar)

    return exit_code(act)


if __name__ == "__main__":
    sys.exit(main())
