"""Finds the folder of a Spark line's jars (the Scala compiler and Spark's classes the line
compiles against), downloading that line's pyspark from PyPI once when no folder holds them.

The folders, in this order: ``$COLSEM_SPARK_JARS_<L>`` (``L`` with ``_`` for ``.``, e.g.
``COLSEM_SPARK_JARS_3_5``); ``$COLSEM_SPARK_JARS`` when it holds that Spark version; the pyspark
installed in this Python when it is that version; the colsem cache (``$COLSEM_CACHE_DIR``, default
``~/.cache/colsem``); else pyspark is downloaded from PyPI with pip into that cache once (a few
hundred MB a line) and only its ``jars`` folder is kept.

``python buildtools/spark_jars.py LINE`` prints (and fetches) one line's folder; build.sbt runs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from build_cli import exit_code
from build_versions import JarBuildError, line_versions, log, read_versions


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
    log(f"downloading pyspark {version} from PyPI into {into} (once; a few hundred MB) ...")
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
            log(f"  pip: {out}")
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
    log(f"downloaded {found[0].name} ({size:.0f} MB) in {time.monotonic() - started:.0f}s")
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
    log(f"Spark {version} jars cached in {cached}")
    return cached


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: spark_jars.py LINE (prints the folder of LINE's Spark jars)", file=sys.stderr)
        return 2
    return exit_code(lambda: print(find_spark_jars(line_versions(read_versions(), args[0]))))


if __name__ == "__main__":
    sys.exit(main())
