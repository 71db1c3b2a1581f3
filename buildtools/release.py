"""Release artifacts: ``make dist`` builds them into ``dist/``, ``make dist-check`` checks them as
PyPI, Maven Central and a user meet them (docs/releasing.md).

``dist/`` holds:
  * ``colsem-<version>.tar.gz`` and ``colsem-<version>-py3-none-any.whl`` (every line's jar), for
    PyPI;
  * ``maven/``, a Maven repository with one bundle per Spark line in
    ``io/github/colsem/colsem-spark-<line>_<scala>/<version>/``: the jar (the one the wheel
    carries), ``-sources.jar``, ``-javadoc.jar`` (scaladoc), the POM, and an ``.md5`` and ``.sha1``
    of each, as Maven Central takes them (``buildtools/maven_bundle.py``'s :func:`publish_bundle`).

``check`` runs, in order: ``dist_problems.py`` (the version everywhere against
``jvm/versions.properties``, each POM's Maven Central elements and coordinates, each bundle's files
and checksums, the licence files in every archive, the sdist's build inputs); ``twine check
--strict``; then the smoke suite (``tests/smoke_tests.txt``) in a
fresh venv (``build/dist-venv``) with pyspark from PyPI and colsem from ``dist/`` only, run with
``COLSEM_DIST_DIR`` set so the tests use that installed wheel (tests/conftest.py checks) and
``tests/test_dist.py`` resolves the line's artifact through ``spark-submit --packages`` from
``dist/maven``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import build_versions
import maven_bundle
from dist_problems import all_line_versions, archive_problems, sdist_path, version, wheel_path

ROOT = build_versions.ROOT
DIST = ROOT / "dist"
SMOKE_VENV = ROOT / "build" / "dist-venv"
# The smoke suite, listed once for `make smoke` and this check: one pytest id a line.
SMOKE_LIST = ROOT / "tests" / "smoke_tests.txt"
# Run only here (COLSEM_DIST_DIR): the wheel's files, `colsem info`, and `spark-submit --packages`
# resolving from dist/maven.
DIST_TESTS = "tests/test_dist.py"
SMOKE_DESELECT = [
    # builds a wheel from the tree, not the installed one (needs the build backend)
    "tests/test_packaging.py::test_wheel_from_source_contains_jar_and_hook",
    # resolves from ~/.m2; tests/test_dist.py resolves from dist/maven with private caches
    "tests/test_ways_in.py::test_spark_submit_packages_from_the_local_maven_repository",
]


def smoke_tests(path: Path = SMOKE_LIST) -> list[str]:
    """The pytest ids of the smoke suite (``#`` comments and blank lines skipped)."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _log(message: str) -> None:
    print(f"==> [dist] {message}", flush=True)


# ---------------------------------------------------------------------------------------------
# make dist


def build(out: Path = DIST) -> None:
    """The sdist and wheel (``python -m build`` with this venv's hatchling; the wheel's jars are
    compiled or reused by fingerprint) and each line's Maven bundle, into a clean ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.monotonic()
    _log(f"sdist and wheel of colsem {version()} -> {out}")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--sdist",
            "--wheel",
            "--outdir",
            str(out),
            str(ROOT),
        ],
        check=True,
    )

    # Two bundles at a time: each one's scaladoc keeps about one core busy for half a minute.
    def bundle(lv: dict[str, str]) -> None:
        _log(f"Maven bundle of {build_versions.maven_coordinate(lv)}")
        maven_bundle.publish_bundle(lv["spark.line"], out / "maven")

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(bundle, all_line_versions()))
    _log(f"dist built in {time.monotonic() - started:.0f}s")


# ---------------------------------------------------------------------------------------------
# make dist-check: twine and the installed wheel


def twine_check(dist: Path) -> None:
    _log("twine check --strict")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "twine",
            "check",
            "--strict",
            str(wheel_path(dist)),
            str(sdist_path(dist)),
        ],
        check=True,
    )


def smoke(dist: Path, venv: Path = SMOKE_VENV, workers: int = 2) -> None:
    """A fresh venv: pyspark (the default line's release) and pytest from PyPI, then colsem from
    ``dist`` alone; the smoke suite runs there, from inside the venv's folder, on that wheel."""
    versions = build_versions.read_versions()
    lv = build_versions.line_versions(versions, build_versions.default_line(versions))
    shutil.rmtree(venv, ignore_errors=True)
    _log(
        f"fresh venv {venv}: pyspark {lv['spark.version']} from PyPI, colsem {version()} from {dist}"
    )
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--progress-bar", "off", "--disable-pip-version-check"]
    subprocess.run(
        pip + [f"pyspark=={lv['spark.version']}", "pytest>=8", "pytest-xdist>=3.5"], check=True
    )
    # No index and no other links (PIP_FIND_LINKS): colsem from dist/ alone, as a wheel, with its
    # requirement met by the pyspark installed above.
    dist_only = {k: val for k, val in os.environ.items() if k != "PIP_FIND_LINKS"}
    subprocess.run(
        pip
        + [
            "--no-index",
            "--find-links",
            str(dist),
            "--only-binary",
            "colsem",
            f"colsem=={version()}",
        ],
        check=True,
        env=dist_only,
    )
    env = {
        k: val
        for k, val in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV") and not k.startswith(("PYSPARK_", "SPARK_"))
    }
    env.update(
        COLSEM_DIST_DIR=str(dist.resolve()), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    )
    xdist = ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []
    deselect = [arg for test in SMOKE_DESELECT for arg in ("--deselect", test)]
    _log(f"smoke suite on the installed wheel ({venv})")
    # From the venv's folder: neither the tree's root nor python/ is on sys.path.
    subprocess.run(
        [
            python,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(ROOT),
            *xdist,
            *deselect,
            *(str(ROOT / test) for test in [DIST_TESTS, *smoke_tests()]),
        ],
        check=True,
        cwd=str(venv),
        env=env,
    )


def check(dist: Path = DIST, workers: int = 2) -> int:
    started = time.monotonic()
    _log(f"versions, metadata, POMs, bundles and licence files in {dist}")
    problems = archive_problems(dist)
    if problems:
        print("dist-check failed:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    twine_check(dist)
    smoke(dist, workers=workers)
    _log(f"dist-check passed in {time.monotonic() - started:.0f}s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", choices=["build", "check"])
    parser.add_argument(
        "--dist", type=Path, default=DIST, help="the dist folder (default: %(default)s)"
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="pytest processes for the smoke suite"
    )
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            build(args.dist)
            return 0
        return check(args.dist.resolve(), args.workers)
    except build_versions.JarBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print(
            f"error: {' '.join(map(str, exc.cmd[:4]))} ... exited {exc.returncode}", file=sys.stderr
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
