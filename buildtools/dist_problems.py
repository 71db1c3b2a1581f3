"""What PyPI, Maven Central and a user would meet wrong in ``dist/``: the version everywhere
against ``jvm/versions.properties``, the wheel's and the sdist's metadata and files, and every
line's Maven bundle (the POM's required elements and coordinates, each file and checksum, the
jar the wheel carries, sources and generated docs, the licence files); ``release.py check`` runs
it before the smoke suite.
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import build_jar
import build_versions
import maven_bundle

ROOT = build_versions.ROOT
CHANGELOG = ROOT / "CHANGELOG.md"
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
    "buildtools/build_jar.py",
    "buildtools/build_cli.py",
    "buildtools/build_versions.py",
    "buildtools/spark_jars.py",
    "buildtools/hatch_hooks.py",
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


def version() -> str:
    return build_versions.read_versions()["colsem.version"]


def changelog_version(path: Path = CHANGELOG) -> str | None:
    """The version of the changelog's newest release heading (``## [0.1.0] - ...``), or None."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            match = re.match(r"## \[(\d+\.\d+\.\d+\S*)\]", line)
            return match.group(1) if match else None
    return None


def all_line_versions() -> list[dict[str, str]]:
    versions = build_versions.read_versions()
    return [
        build_versions.line_versions(versions, line) for line in build_versions.all_lines(versions)
    ]


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
            "artifactId": build_versions.artifact_id(lv),
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
    for path in build_versions.LICENSE_FILES:
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
        for p in build_versions.LICENSE_FILES
        if f"META-INF/{p.name}" in names
    }


def bundle_problems(repo: Path, lv: dict[str, str], wheel: zipfile.ZipFile) -> list[str]:
    """One line's bundle in the Maven repository ``repo``: every file and checksum, the POM, the
    jar identical to the wheel's, sources and generated docs in the other jars, licence files."""
    folder = maven_bundle.maven_folder(repo, lv)
    missing = [
        f"{folder / name}: missing or empty"
        for name in maven_bundle.bundle_files(lv)
        if not (folder / name).is_file() or (folder / name).stat().st_size == 0
    ]
    if missing:
        return missing
    problems = []
    for name in maven_bundle.bundle_files(lv):
        path = folder / name
        for algorithm in maven_bundle.CHECKSUM_ALGORITHMS:
            recorded = Path(f"{path}.{algorithm}")
            if not recorded.is_file():
                problems.append(f"{recorded}: missing")
            elif recorded.read_text().strip() != maven_bundle.checksum(path, algorithm):
                problems.append(f"{recorded}: does not match {name}")
    jar, sources, javadoc, pom = (folder / name for name in maven_bundle.bundle_files(lv))
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
                for p in build_versions.LICENSE_FILES
                if f"{info}/licenses/{p.name}" in names
            },
        )
        wanted = {f"colsem/jars/{build_versions.jar_name(lv)}" for lv in all_line_versions()}
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
                for p in build_versions.LICENSE_FILES
                if p.name in members
            },
        )
        jars = [name for name in members if name.endswith(".jar")]
        if jars:
            problems.append(
                f"{sdist.name}: carries compiled jars ({', '.join(jars)}); it is the source"
            )
    return problems
