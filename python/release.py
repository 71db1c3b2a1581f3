"""Release artifacts: ``make dist`` builds them into ``dist/``, ``make dist-check`` checks them as
PyPI, Maven Central and a user meet them (docs/releasing.md).

``dist/`` holds:
  * ``colsem-<version>.tar.gz`` and ``colsem-<version>-py3-none-any.whl`` (every line's jar), for
    PyPI;
  * ``maven/``, a Maven repository with one bundle per Spark line in
    ``io/github/colsem/colsem-spark-<line>_<scala>/<version>/``: the jar (the one the wheel
    carries), ``-sources.jar``, ``-javadoc.jar`` (scaladoc), the POM, and an ``.md5`` and ``.sha1``
    of each, as Maven Central takes them (``python/build_jar.py``'s :func:`publish_bundle`).

``check`` runs, in order: the version everywhere against ``jvm/versions.properties``; ``twine check
--strict``; each POM's Maven Central elements, each bundle's files and checksums, the licence
files in every archive, the sdist's build inputs; then the smoke suite (``SMOKE_TESTS``) in a
fresh venv (``build/dist-venv``) with pyspark from PyPI and colsem from ``dist/`` only, run with
``COLSEM_DIST_DIR`` set so the tests use that installed wheel (tests/conftest.py checks) and
``tests/test_dist.py`` resolves the line's artifact through ``spark-submit --packages`` from
``dist/maven``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import build_jar

ROOT = build_jar.ROOT
DIST = ROOT / "dist"
CHANGELOG = ROOT / "CHANGELOG.md"
SMOKE_VENV = ROOT / "build" / "dist-venv"
# What the installed wheel must pass (tests/test_dist.py only runs with COLSEM_DIST_DIR): automatic
# registration, configure, status, a lateral alias, `colsem info`, `colsem sql`, `spark-submit
# --packages` from dist/maven; the jars and hook the package carries; a golden file per core.
SMOKE_TESTS = [
    "tests/test_dist.py",
    "tests/test_packaging.py",
    "tests/test_ways_in.py",
    "tests/test_golden.py::test_golden_file[status]",
    "tests/test_golden.py::test_golden_file[lateral_alias]",
    "tests/test_respond_cli.py::test_json_response_of_a_view_over_parquet",
]
SMOKE_DESELECT = [
    # builds a wheel from the tree, not the installed one (needs the build backend)
    "tests/test_packaging.py::test_wheel_from_source_contains_jar_and_hook",
    # resolves from ~/.m2; tests/test_dist.py resolves from dist/maven with private caches
    "tests/test_ways_in.py::test_spark_submit_packages_from_the_local_maven_repository",
]
# Files the wheel's build needs from the sdist, besides every source under jvm/src/main.
SDIST_NEEDS = [
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "NOTICE",
    "CHANGELOG.md",
    "jvm/versions.properties",
    "jvm/project.properties",
    "jvm/compile.properties",
    "python/build_jar.py",
    "python/hatch_hooks.py",
    "python/colsem/__init__.py",
    "python/colsem_autoregister.py",
    "python/colsem_autoregister.pth",
]
# Each POM element Maven Central requires, as a path below <project>.
POM_REQUIRED = [
    "modelVersion",
    "groupId",
    "artifactId",
    "version",
    "packaging",
    "name",
    "description",
    "url",
    "licenses/license/name",
    "licenses/license/url",
    "scm/url",
    "scm/connection",
    "scm/developerConnection",
    "developers/developer/name",
]
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
# Provided by the Spark installation: a runtime dependency on them would make --packages fetch them.
PROVIDED_GROUPS = ("org.apache.spark", "org.scala-lang")


def _log(message: str) -> None:
    print(f"==> [dist] {message}", flush=True)


def version() -> str:
    return build_jar.read_versions()["colsem.version"]


def changelog_version(path: Path = CHANGELOG) -> str | None:
    """The version of the changelog's newest release heading (``## [0.1.0] - ...``), or None."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            match = re.match(r"## \[(\d+\.\d+\.\d+\S*)\]", line)
            return match.group(1) if match else None
    return None


def all_line_versions() -> list[dict[str, str]]:
    versions = build_jar.read_versions()
    return [build_jar.line_versions(versions, line) for line in build_jar.all_lines(versions)]


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
    for lv in all_line_versions():
        _log(f"Maven bundle of {build_jar.maven_coordinate(lv)}")
        build_jar.publish_bundle(lv["spark.line"], out / "maven")
    _log(f"dist built in {time.monotonic() - started:.0f}s")


# ---------------------------------------------------------------------------------------------
# make dist-check: the archives


def _one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    if len(found) != 1:
        raise SystemExit(
            f"dist-check: expected one {pattern} in {dist}, found "
            f"{[p.name for p in found] or 'none'}; run `make dist`."
        )
    return found[0]


def wheel_path(dist: Path) -> Path:
    return _one(dist, "colsem-*.whl")


def sdist_path(dist: Path) -> Path:
    return _one(dist, "colsem-*.tar.gz")


def _metadata_field(text: str, field: str) -> list[str]:
    return [
        line.split(":", 1)[1].strip()
        for line in text.split("\n\n", 1)[0].splitlines()
        if line.startswith(field + ":")
    ]


def pom_problems(pom: Path, lv: dict[str, str] | None = None) -> list[str]:
    """What Maven Central would reject in ``pom``: each missing element named, a runtime dependency
    on what Spark provides, and (given the line) coordinates other than the artifact's."""
    try:
        project = ElementTree.parse(pom).getroot()
    except ElementTree.ParseError as exc:
        return [f"{pom}: not well-formed XML ({exc})"]
    problems = []
    for path in POM_REQUIRED:
        found = project.find("/".join(f"m:{part}" for part in path.split("/")), POM_NS)
        if found is None or not (found.text or "").strip():
            problems.append(f"{pom}: missing <{'><'.join(path.split('/'))}>")
    for dependency in project.findall("m:dependencies/m:dependency", POM_NS):
        group = dependency.findtext("m:groupId", "", POM_NS)
        scope = dependency.findtext("m:scope", "compile", POM_NS)
        if group in PROVIDED_GROUPS and scope not in ("provided", "test"):
            problems.append(
                f"{pom}: depends on {group}:{dependency.findtext('m:artifactId', '', POM_NS)} "
                f"in scope {scope}; Spark provides it"
            )
    if lv is not None:
        expected = {
            "groupId": lv["maven.group"],
            "artifactId": build_jar.artifact_id(lv),
            "version": lv["colsem.version"],
        }
        for element, value in expected.items():
            actual = project.findtext(f"m:{element}", "", POM_NS)
            if actual != value:
                problems.append(f"{pom}: <{element}> is {actual!r}, not {value!r}")
    return problems


def _license_problems(where: str, files: dict[str, bytes]) -> list[str]:
    """``files``: the archive's copy of each licence file, by the tree's name (absent: missing)."""
    problems = []
    for path in build_jar.LICENSE_FILES:
        copy = files.get(path.name)
        if copy is None:
            problems.append(f"{where}: no {path.name}")
        elif copy != path.read_bytes():
            problems.append(f"{where}: its {path.name} differs from the repository's")
    return problems


def _jar_license_files(jar: zipfile.ZipFile) -> dict[str, bytes]:
    names = set(jar.namelist())
    return {
        p.name: jar.read(f"META-INF/{p.name}")
        for p in build_jar.LICENSE_FILES
        if f"META-INF/{p.name}" in names
    }


def bundle_problems(repo: Path, lv: dict[str, str], wheel: zipfile.ZipFile) -> list[str]:
    """One line's bundle in the Maven repository ``repo``: every file and checksum, the POM, the
    jar identical to the wheel's, sources and generated docs in the other jars, licence files."""
    folder = build_jar.maven_folder(repo, lv)
    missing = [
        f"{folder / name}: missing or empty"
        for name in build_jar.bundle_files(lv)
        if not (folder / name).is_file() or (folder / name).stat().st_size == 0
    ]
    if missing:
        return missing
    problems = []
    for name in build_jar.bundle_files(lv):
        path = folder / name
        for algorithm in build_jar.CHECKSUM_ALGORITHMS:
            recorded = Path(f"{path}.{algorithm}")
            if not recorded.is_file():
                problems.append(f"{recorded}: missing")
            elif recorded.read_text().strip() != build_jar.checksum(path, algorithm):
                problems.append(f"{recorded}: does not match {name}")
    jar, sources, javadoc, pom = (folder / name for name in build_jar.bundle_files(lv))
    problems += pom_problems(pom, lv)
    if jar.read_bytes() != wheel.read(f"colsem/jars/{jar.name}"):
        problems.append(f"{jar}: differs from the wheel's colsem/jars/{jar.name}")
    with zipfile.ZipFile(jar) as zf:
        problems += _license_problems(str(jar), _jar_license_files(zf))
        recorded = zf.read(build_jar.BUILD_PROPERTIES).decode()
        if f"colsem.version={lv['colsem.version']}\n" not in recorded:
            problems.append(f"{jar}: {build_jar.BUILD_PROPERTIES} records another colsem version")
    expected_sources = {
        str(p.relative_to(root))
        for root in build_jar.source_roots(lv)
        for p in root.rglob("*.scala")
    }
    with zipfile.ZipFile(sources) as zf:
        problems += _license_problems(str(sources), _jar_license_files(zf))
        missing = sorted(expected_sources - set(zf.namelist()))
        if missing:
            problems.append(f"{sources}: lacks {len(missing)} source files, e.g. {missing[0]}")
    with zipfile.ZipFile(javadoc) as zf:
        problems += _license_problems(str(javadoc), _jar_license_files(zf))
        pages = set(zf.namelist())
        for page in ("index.html", "io/colsem/ColsemExtensions.html"):
            if page not in pages:
                problems.append(f"{javadoc}: no generated {page}")
    return problems


def archive_problems(dist: Path) -> list[str]:
    """The version everywhere, the wheel's metadata and files, the sdist's contents, every bundle."""
    v = version()
    problems = []
    if changelog_version() != v:
        problems.append(
            f"CHANGELOG.md: newest heading is {changelog_version()!r}, "
            f"jvm/versions.properties says {v}"
        )
    wheel, sdist = wheel_path(dist), sdist_path(dist)
    if wheel.name != f"colsem-{v}-py3-none-any.whl":
        problems.append(f"{wheel.name}: expected colsem-{v}-py3-none-any.whl")
    if sdist.name != f"colsem-{v}.tar.gz":
        problems.append(f"{sdist.name}: expected colsem-{v}.tar.gz")
    with zipfile.ZipFile(wheel) as whl:
        info = f"colsem-{v}.dist-info"
        names = set(whl.namelist())
        metadata = whl.read(f"{info}/METADATA").decode() if f"{info}/METADATA" in names else ""
        if _metadata_field(metadata, "Version") != [v]:
            problems.append(
                f"{wheel.name}: METADATA Version is {_metadata_field(metadata, 'Version')}, not {v}"
            )
        if _metadata_field(metadata, "License-Expression") != ["Apache-2.0"]:
            problems.append(f"{wheel.name}: METADATA has no License-Expression: Apache-2.0")
        if not _metadata_field(metadata, "Project-URL"):
            problems.append(f"{wheel.name}: METADATA has no Project-URL")
        problems += _license_problems(
            f"{wheel.name} {info}/licenses",
            {
                p.name: whl.read(f"{info}/licenses/{p.name}")
                for p in build_jar.LICENSE_FILES
                if f"{info}/licenses/{p.name}" in names
            },
        )
        wanted = {f"colsem/jars/{build_jar.jar_name(lv)}" for lv in all_line_versions()}
        carried = {n for n in names if n.startswith("colsem/jars/") and n.endswith(".jar")}
        if carried != wanted:
            problems.append(f"{wheel.name}: carries {sorted(carried)}, expected {sorted(wanted)}")
        for lv in all_line_versions():
            problems += bundle_problems(dist / "maven", lv, whl)
    with tarfile.open(sdist) as tar:
        top = f"colsem-{v}/"
        members = {m.name[len(top) :]: m for m in tar.getmembers() if m.name.startswith(top)}
        pkg_info = (
            tar.extractfile(members["PKG-INFO"]).read().decode() if "PKG-INFO" in members else ""
        )
        if _metadata_field(pkg_info, "Version") != [v]:
            problems.append(
                f"{sdist.name}: PKG-INFO Version is {_metadata_field(pkg_info, 'Version')}, not {v}"
            )
        sources = [
            str(p.relative_to(ROOT))
            for p in (ROOT / "jvm" / "src" / "main").rglob("*")
            if p.is_file()
        ]
        for name in SDIST_NEEDS + sources:
            if name not in members:
                problems.append(f"{sdist.name}: lacks {name}, which building the wheel needs")
        problems += _license_problems(
            sdist.name,
            {
                p.name: tar.extractfile(members[p.name]).read()
                for p in build_jar.LICENSE_FILES
                if p.name in members
            },
        )
        jars = [name for name in members if name.endswith(".jar")]
        if jars:
            problems.append(
                f"{sdist.name}: carries compiled jars ({', '.join(jars)}); it is the source"
            )
    return problems


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
    versions = build_jar.read_versions()
    lv = build_jar.line_versions(versions, build_jar.default_line(versions))
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
            *(str(ROOT / test) for test in SMOKE_TESTS),
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
    except build_jar.JarBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as exc:
        print(
            f"error: {' '.join(map(str, exc.cmd[:4]))} ... exited {exc.returncode}", file=sys.stderr
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
