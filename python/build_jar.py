"""Compile colsem's Scala sources into the jar that ships inside the Python package.

Used three ways, all through :func:`build_jar`:
  * the hatch build hook (``pip install .``, ``python -m build``) -- see ``hatch_hooks.py``;
  * ``make jar`` -- ``python python/build_jar.py``;
  * the tests, which read :func:`read_versions`.

Needs no sbt and no network: the Scala compiler, the Scala library and every Spark class come from
the installed pyspark wheel, whose version must equal ``spark.version`` in
``jvm/versions.properties``. A jar whose recorded source fingerprint matches the sources is reused.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Dict, Iterable, List

ROOT = Path(__file__).resolve().parent.parent
VERSIONS_FILE = ROOT / "jvm" / "versions.properties"
BUILD_PROPERTIES = "io/colsem/colsem-build.properties"
JAR_DIR = ROOT / "python" / "colsem" / "jars"
EXTENSION_CLASS = "io.colsem.ColsemExtensions"


class JarBuildError(RuntimeError):
    """The jar cannot be built; the message says what is missing and how to get it."""


def read_versions(path: Path = VERSIONS_FILE) -> Dict[str, str]:
    """``key=value`` lines of versions.properties ('#' comments skipped)."""
    versions: Dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            versions[key.strip()] = value.strip()
    return versions


def artifact_id(versions: Dict[str, str]) -> str:
    return f"colsem-spark-{versions['spark.line']}_{versions['scala.binary']}"


def jar_name(versions: Dict[str, str]) -> str:
    return f"{artifact_id(versions)}-{versions['colsem.version']}.jar"


def _log(message: str) -> None:
    print(f"[colsem build] {message}", file=sys.stderr, flush=True)


def check_java() -> str:
    """The java executable, after checking it is Java 17 or newer."""
    java_home = os.environ.get("JAVA_HOME")
    java = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java")
    if not java or not Path(java).exists():
        raise JarBuildError(
            "Java 17 is needed to build colsem's jar and to run Spark, and no `java` was found. "
            "Install it (Debian/Ubuntu: `apt-get install openjdk-17-jdk-headless`) or set JAVA_HOME.")
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    match = re.search(r'version "(\d+)', out)
    if not match or int(match.group(1)) < 17:
        raise JarBuildError(
            f"Java 17 or newer is needed, but {java} reports: {out.strip().splitlines()[0]}. "
            "Install OpenJDK 17 (`apt-get install openjdk-17-jdk-headless`) or point JAVA_HOME at it.")
    return java


def find_spark_jars(versions: Dict[str, str]) -> Path:
    """The folder of Spark's jars to compile against: $COLSEM_SPARK_JARS, else installed pyspark's."""
    override = os.environ.get("COLSEM_SPARK_JARS")
    if override:
        folder = Path(override)
    else:
        spec = importlib.util.find_spec("pyspark")
        if spec is None or spec.origin is None:
            raise JarBuildError(
                f"pyspark=={versions['spark.version']} must be installed in the Python that builds "
                "colsem (its jars hold the Scala compiler and Spark's classes), or set "
                "COLSEM_SPARK_JARS to a folder of Spark "
                f"{versions['spark.version']} jars. `make jar` sets this up in .venv.")
        folder = Path(spec.origin).parent / "jars"
    core = list(folder.glob(f"spark-core_{versions['scala.binary']}-*.jar"))
    if not core:
        raise JarBuildError(f"{folder} holds no spark-core_{versions['scala.binary']} jar.")
    found = core[0].name[len(f"spark-core_{versions['scala.binary']}-"):-len(".jar")]
    if found != versions["spark.version"]:
        raise JarBuildError(
            f"colsem compiles against Spark {versions['spark.version']} (jvm/versions.properties) "
            f"but {folder} holds Spark {found}. Install pyspark=={versions['spark.version']}.")
    return folder


def _sources(versions: Dict[str, str]) -> List[Path]:
    main = ROOT / "jvm" / "src" / "main"
    line = versions["spark.line"]
    folders = [f.strip() for f in versions.get(f"line.{line}.shims", "").split(",") if f.strip()]
    if not folders:
        raise JarBuildError(f"jvm/versions.properties names no shim folders (line.{line}.shims).")
    sources = sorted((main / "scala").rglob("*.scala"))
    for name in folders:
        shim = main / "shims" / name
        if not shim.is_dir():
            raise JarBuildError(f"No shim folder {shim.relative_to(ROOT)} for Spark {line}.")
        sources += sorted(shim.rglob("*.scala"))
    return sources


def _resources() -> List[Path]:
    folder = ROOT / "jvm" / "src" / "main" / "resources"
    return sorted(p for p in folder.rglob("*") if p.is_file())


def source_fingerprint(files: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _recorded_fingerprint(jar: Path) -> str:
    try:
        with zipfile.ZipFile(jar) as zf:
            text = zf.read(BUILD_PROPERTIES).decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile):
        return ""
    match = re.search(r"^source\.fingerprint=(\w+)$", text, re.M)
    return match.group(1) if match else ""


def build_properties(versions: Dict[str, str], fingerprint: str) -> str:
    keys = ["colsem.version", "spark.version", "spark.line", "scala.binary", "pyspark.supported"]
    lines = [f"{k}={versions[k]}" for k in keys] + [f"source.fingerprint={fingerprint}"]
    return "\n".join(lines) + "\n"


def _compile(java: str, spark_jars: Path, versions: Dict[str, str], sources: List[Path], out: Path) -> None:
    scala = versions["scala.version"]
    compiler_cp = os.pathsep.join(
        str(spark_jars / f"scala-{name}-{scala}.jar") for name in ("compiler", "library", "reflect"))
    cmd = [java, "-Xss8m", "-cp", compiler_cp, "scala.tools.nsc.Main",
           "-release", "17", "-deprecation", "-feature", "-unchecked", "-Werror",
           "-classpath", str(spark_jars / "*"), "-d", str(out)] + [str(s) for s in sources]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise JarBuildError("scalac failed:\n" + (result.stdout + result.stderr).strip())


def _write_jar(jar: Path, classes: Path, versions: Dict[str, str], fingerprint: str) -> None:
    resources = ROOT / "jvm" / "src" / "main" / "resources"
    manifest = (f"Manifest-Version: 1.0\nImplementation-Title: {artifact_id(versions)}\n"
                f"Implementation-Version: {versions['colsem.version']}\n"
                f"Implementation-Vendor: {versions['maven.group']}\n\n")
    tmp = jar.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest)
        for path in sorted(classes.rglob("*.class")):
            zf.write(path, str(path.relative_to(classes)))
        for path in _resources():
            zf.write(path, str(path.relative_to(resources)))
        zf.writestr(BUILD_PROPERTIES, build_properties(versions, fingerprint))
    tmp.replace(jar)


def build_jar(out_dir: Path = JAR_DIR, force: bool = False) -> Path:
    """Build (or reuse) the jar in ``out_dir`` and write ``build.json`` beside it."""
    versions = read_versions()
    sources = _sources(versions)
    fingerprint = source_fingerprint(sources + _resources() + [VERSIONS_FILE, Path(__file__).resolve()])
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = out_dir / jar_name(versions)
    for stale in out_dir.glob("*.jar"):
        if stale != jar:
            stale.unlink()
    if not force and jar.exists() and _recorded_fingerprint(jar) == fingerprint:
        _log(f"{jar.name} is up to date")
    else:
        java = check_java()
        spark_jars = find_spark_jars(versions)
        _log(f"compiling {len(sources)} Scala files against Spark {versions['spark.version']} "
             f"(Scala {versions['scala.version']}) ...")
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="colsem-classes-") as classes:
            _compile(java, spark_jars, versions, sources, Path(classes))
            _write_jar(jar, Path(classes), versions, fingerprint)
        _log(f"wrote {jar.relative_to(ROOT) if jar.is_relative_to(ROOT) else jar} "
             f"in {time.monotonic() - started:.1f}s")
    info = {
        "jar": jar.name,
        "version": versions["colsem.version"],
        "spark_version": versions["spark.version"],
        "spark_line": versions["spark.line"],
        "scala_binary": versions["scala.binary"],
        "pyspark_supported": versions["pyspark.supported"],
        "maven_coordinate": f"{versions['maven.group']}:{artifact_id(versions)}:{versions['colsem.version']}",
        "extension_class": EXTENSION_CLASS,
    }
    (out_dir / "build.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return jar


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="rebuild even if the jar is up to date")
    parser.add_argument("--out", type=Path, default=JAR_DIR, help="output folder (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        print(build_jar(args.out, force=args.force))
    except JarBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
