"""The release artifacts as a user meets them: run by `make dist-check` (COLSEM_DIST_DIR, see
buildtools/release.py) in a fresh venv that installed colsem from the wheel in dist/ and pyspark from
PyPI. Not collected otherwise."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree

import colsem
from build_jar_access import (
    build_versions,
    dist_problems,
    maven_bundle,
    read_versions,
    running_line,
)
from conftest import DIST_DIR, ROOT, SESSION_PRELUDE, installed_colsem, result_of, run_python

DIST = Path(DIST_DIR or "")
VERSIONS = read_versions()
VERSION = VERSIONS["colsem.version"]
LINES = build_versions.all_lines(VERSIONS)
# A lateral alias inside a window: vanilla Spark refuses it (LATERAL_COLUMN_ALIAS_IN_WINDOW), so
# these rows come from colsem.
LATERAL_WINDOW_SQL = (
    "SELECT price * qty AS total, total * 0.2 AS tax, sum(total) OVER () AS grand "
    "FROM VALUES (2.0, 3), (1.5, 5) AS orders(price, qty) ORDER BY total"
)
LATERAL_WINDOW_ROWS = [
    [Decimal("6.0"), Decimal("1.20"), Decimal("13.5")],
    [Decimal("7.5"), Decimal("1.50"), Decimal("13.5")],
]


def test_colsem_is_the_wheel_from_dist():
    """Every file the wheel holds is installed, byte for byte, in this venv's site-packages."""
    site = Path(sysconfig.get_paths()["purelib"])
    assert Path(colsem.__file__).parent == installed_colsem() == site / "colsem"
    assert not Path(colsem.__file__).resolve().is_relative_to(ROOT / "python")
    with zipfile.ZipFile(dist_problems.wheel_path(DIST)) as wheel:
        packaged = [n for n in wheel.namelist() if not n.endswith("/") and ".dist-info/" not in n]
        assert {
            f"colsem/jars/{build_versions.jar_name(build_versions.line_versions(VERSIONS, line))}"
            for line in LINES
        } <= set(packaged)
        assert [n for n in packaged if (site / n).read_bytes() != wheel.read(n)] == []


def test_info_lists_the_bundled_jars():
    import pyspark

    out = subprocess.run(
        [sys.executable, "-m", "colsem", "info"], capture_output=True, text=True, check=True
    ).stdout
    info = json.loads(out)
    lv = build_versions.line_versions(VERSIONS, running_line())
    assert (info["version"], info["installed_pyspark"], info["selected_jar"]) == (
        VERSION,
        pyspark.__version__,
        build_versions.jar_name(lv),
    )
    assert info["pyspark_supported"] == build_versions.supported_union(VERSIONS, LINES)
    assert [j["spark_line"] for j in info["jars"]] == LINES
    assert [j["maven_coordinate"] for j in info["jars"]] == [
        build_versions.maven_coordinate(build_versions.line_versions(VERSIONS, line))
        for line in LINES
    ]


def test_configure_status_and_a_lateral_alias_in_a_window(spark):
    status = colsem.status(spark)
    assert (status["active"], status["version"], status["built_for_spark"]) == (
        "true",
        VERSION,
        running_line(),
    )
    assert [list(r) for r in spark.sql(LATERAL_WINDOW_SQL).collect()] == LATERAL_WINDOW_ROWS


def test_every_bundle_carries_the_one_pom_under_its_jars_coordinates():
    """Each line's POM in dist/maven is the POM sbt publishes too (maven_bundle.pom, the one
    writer), and its coordinates are the ones the bundle's folder and jar say: the folder is
    group/artifact/version, and the artifact names the line and Scala binary the jar was built
    for."""
    repo = DIST / "maven"
    poms = sorted(repo.rglob("*.pom"))
    assert len(poms) == len(LINES)
    for pom in poms:
        *group, artifact, version = pom.parent.relative_to(repo).parts
        jar = pom.with_suffix(".jar")
        with zipfile.ZipFile(jar) as zf:
            built = dict(
                line.split("=", 1)
                for line in zf.read("io/colsem/colsem-build.properties").decode().splitlines()
            )
        lv = build_versions.line_versions(VERSIONS, built["spark.line"])
        assert pom.read_text(encoding="utf-8") == maven_bundle.pom(lv)
        project = ElementTree.parse(pom).getroot()
        ns = dist_problems.POM_NS
        coordinates = [
            project.findtext(f"m:{e}", "", ns) for e in ("groupId", "artifactId", "version")
        ]
        assert (
            coordinates
            == [
                ".".join(group),
                f"colsem-spark-{built['spark.line']}_{built['scala.binary']}",
                built["colsem.version"],
            ]
            == [VERSIONS["maven.group"], artifact, VERSION]
        )
        assert pom.name == f"{artifact}-{version}.pom" and version == VERSION


def test_spark_submit_packages_from_the_dist_maven_repository(workdir: Path):
    """`--packages` resolved from dist/maven as from Maven Central: Ivy's cache and the home whose
    ~/.m2 Spark also searches are private, so only the bundle can satisfy it."""
    import pyspark

    repo = DIST / "maven"
    lv = build_versions.line_versions(VERSIONS, running_line())
    ivy, home = workdir / "dist-ivy", workdir / "dist-home"
    for folder in (ivy, home):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    submit = [
        str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
        "--master",
        "local[1]",
        "--conf",
        "spark.ui.enabled=false",
        "--conf",
        f"spark.jars.ivy={ivy}",
        "--repositories",
        repo.as_uri(),
        "--packages",
        build_versions.maven_coordinate(lv),
    ]
    proc = run_python(
        SESSION_PRELUDE
        + f"""
spark = SparkSession.builder.getOrCreate()
rows = [[str(v) for v in r] for r in spark.sql({LATERAL_WINDOW_SQL!r}).collect()]
emit(status=status_of(spark), rows=rows, jars=spark.sparkContext.getConf().get("spark.jars", ""))
""",
        launcher=submit,
        env={
            "PYSPARK_PYTHON": sys.executable,
            "PYSPARK_DRIVER_PYTHON": sys.executable,
            "COLSEM_AUTOREGISTER": "0",
            "SPARK_SUBMIT_OPTS": f"-Duser.home={home}",
        },
    )
    out = result_of(proc)
    assert (out["status"]["active"], out["status"]["version"]) == ("true", VERSION)
    assert out["rows"] == [[str(v) for v in row] for row in LATERAL_WINDOW_ROWS]
    group, artifact = lv["maven.group"], build_versions.artifact_id(lv)
    assert f"found {group}#{artifact};{VERSION} in repo-1" in proc.stderr, proc.stderr[-3000:]
    resolved = ivy / "jars" / f"{group}_{artifact}-{VERSION}.jar"
    assert out["jars"].split(",") == [f"file://{resolved}"]
    assert (
        resolved.read_bytes()
        == (maven_bundle.maven_folder(repo, lv) / build_versions.jar_name(lv)).read_bytes()
    )
