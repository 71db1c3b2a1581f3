"""One package, one jar per Spark line: which jar the running pyspark gets, the wheel's pyspark
requirement, the build's line handling, the Makefile's SPARK switch, and jars on the wrong line
(real sessions of another line when its venv exists: `make venv SPARK=3.5` creates .venv-3.5)."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import colsem
import pytest
from build_jar_access import (
    build_jar,
    build_versions,
    compile_scala,
    line_versions,
    maven_bundle,
    read_versions,
    release,
    running_line,
    spark_jars,
)
from conftest import ROOT, SESSION_PRELUDE, TESTS, result_of, run_python
from packaging.specifiers import SpecifierSet

# Line-independent (CI runs it on the default line only). Jar choice, requirements and make dry
# runs; the real sessions of other lines are long.
pytestmark = pytest.mark.once

VERSIONS = read_versions()
LINES = build_versions.all_lines(VERSIONS)
EXT = "io.colsem.ColsemExtensions"
LINKAGE_ERRORS = (
    "NoSuchMethodError",
    "NoClassDefFoundError",
    "AbstractMethodError",
    "IncompatibleClassChangeError",
    "ClassNotFoundException",
)


def venv_python(line: str) -> Path | None:
    """The Makefile's venv for a line (.venv for default.line, .venv-<line> otherwise), if made."""
    name = ".venv" if line == VERSIONS["default.line"] else f".venv-{line}"
    python = ROOT / name / "bin" / "python"
    return python if python.exists() else None


def other_line() -> str:
    """The line to try the running line's jar on: 3.5 (the other Scala) unless we run on 3.5."""
    return "3.5" if running_line() != "3.5" else VERSIONS["default.line"]


# ---------------------------------------------------------------------------------------------
# Choosing the jar (a package made here: the running line's jar under a second line's name and
# build metadata, for the selection logic only)


@pytest.fixture
def two_line_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    jars = tmp_path / "jars"
    jars.mkdir()
    for line in ("3.5", "4.3"):
        lv = line_versions(VERSIONS, line)
        with (
            zipfile.ZipFile(colsem.jar_path()) as src,
            zipfile.ZipFile(jars / build_versions.jar_name(lv), "w") as dst,
        ):
            for item in src.infolist():
                data = src.read(item)
                if item.filename == build_jar.BUILD_PROPERTIES:
                    data = build_jar.build_properties(lv, "0" * 64).encode()
                dst.writestr(item, data)
    build_jar.write_build_json(jars, sorted(jars.glob("*.jar")))
    monkeypatch.setattr(colsem._jars, "JARS_DIR", jars)
    colsem._jars._package.cache_clear()
    yield jars
    colsem._jars._package.cache_clear()


@pytest.mark.parametrize(
    "pyspark_version,jar",
    [
        ("3.5.0", "colsem-spark-3.5_2.12-0.1.0.jar"),
        ("3.5.9", "colsem-spark-3.5_2.12-0.1.0.jar"),
        ("4.3.0", "colsem-spark-4.3_2.13-0.1.0.jar"),
        ("4.3.1", "colsem-spark-4.3_2.13-0.1.0.jar"),
    ],
)
def test_the_jar_of_the_running_pyspark_line_is_chosen(
    two_line_package: Path, pyspark_version: str, jar: str
):
    info = colsem.build_info(pyspark_version)
    assert info.jar == jar
    assert colsem.jar_path(pyspark_version) == str(two_line_package / jar)
    assert info.maven_coordinate == f"io.github.colsem:{jar[: -len('-0.1.0.jar')]}:0.1.0"


@pytest.mark.parametrize("pyspark_version", ["3.4.1", "4.0.5", "4.2.1", "4.4.0"])
def test_a_pyspark_on_no_bundled_line_is_refused(two_line_package: Path, pyspark_version: str):
    with pytest.raises(colsem.UnsupportedSparkVersion) as err:
        colsem.jar_path(pyspark_version)
    assert str(err.value) == (
        "colsem 0.1.0 carries jars for Spark 3.5 (pyspark >=3.5.0,<3.6, Scala 2.12), 4.3 (pyspark "
        f">=4.3.0,<4.4, Scala 2.13) but pyspark {pyspark_version} is installed. Install a supported "
        "pyspark (pip install 'pyspark>=3.5.0,!=4.0.*,!=4.1.*,!=4.2.*,<4.4') or a colsem build for "
        "your Spark line."
    )


def test_cli_names_the_chosen_jar(two_line_package: Path, capsys: pytest.CaptureFixture):
    from colsem.__main__ import main

    assert main(["jar", "--pyspark", "3.5.2"]) == 0
    assert main(["coordinate", "--pyspark", "3.5.2"]) == 0
    assert main(["coordinate", "--pyspark", "4.1.0"]) == 2
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        str(two_line_package / "colsem-spark-3.5_2.12-0.1.0.jar"),
        "io.github.colsem:colsem-spark-3.5_2.12:0.1.0",
    ]
    assert captured.err.startswith("colsem: colsem 0.1.0 carries jars for Spark 3.5 (pyspark")


# ---------------------------------------------------------------------------------------------
# The wheel's pyspark requirement


PROBES = [
    "3.4.4",
    "3.5.0",
    "3.5.9",
    "3.6.0",
    "4.0.0",
    "4.0.5",
    "4.1.0",
    "4.1.4",
    "4.2.0",
    "4.2.1",
    "4.3.0",
    "4.3.7",
    "4.4.0",
    "5.0.0",
]


@pytest.mark.parametrize(
    "lines",
    [LINES, ["3.5", "4.3"], ["4.0", "4.2", "4.3"], ["4.3"], ["3.5"]],
    ids=lambda lines: "+".join(lines),
)
def test_the_wheel_requirement_admits_exactly_the_bundled_lines(lines):
    union = SpecifierSet(build_versions.supported_union(VERSIONS, lines))
    per_line = [SpecifierSet(line_versions(VERSIONS, line)["pyspark.supported"]) for line in lines]
    for version in PROBES:
        if version == "3.6.0":
            continue  # no such pyspark: 3.5 is the last 3.x line (the union spans it)
        assert (version in union) == any(version in spec for spec in per_line), version
        assert colsem._jars.is_supported(version, str(union)) == (version in union), version


def test_the_requirement_of_every_line():
    assert build_versions.supported_union(VERSIONS, LINES) == ">=3.5.0,<4.4"
    assert (
        build_versions.supported_union(VERSIONS, ["3.5", "4.3"])
        == ">=3.5.0,!=4.0.*,!=4.1.*,!=4.2.*,<4.4"
    )


# ---------------------------------------------------------------------------------------------
# The build's line handling


def test_unknown_line_is_refused(capsys: pytest.CaptureFixture):
    assert build_jar.main(["--line", "3.4"]) == 1
    assert capsys.readouterr().err == (
        "error: Spark line '3.4' is not one of colsem's lines (3.5, 4.0, 4.1, 4.2, 4.3); see lines= "
        "in jvm/versions.properties.\n"
    )


def test_every_line_names_its_shim_folders(monkeypatch, capsys):
    # A line in lines= without line.<L>.shims is an error, as any other missing key of a line: a
    # build never leaves a line out of the wheel.
    without = {k: v for k, v in VERSIONS.items() if k != "line.4.3.shims"}
    monkeypatch.setattr(build_jar, "read_versions", lambda path=None: without)
    assert build_jar.main(["--line", "4.3"]) == 1
    assert capsys.readouterr().err == "error: jvm/versions.properties has no line.4.3.shims.\n"
    with pytest.raises(
        build_versions.JarBuildError, match="^jvm/versions.properties has no line.4.3"
    ):
        build_versions.supported_union(without)


def test_per_line_spark_jars_folder_must_hold_that_spark(tmp_path: Path, monkeypatch):
    lv = line_versions(VERSIONS, running_line())
    monkeypatch.setenv(f"COLSEM_SPARK_JARS_{running_line().replace('.', '_')}", str(tmp_path))
    with pytest.raises(build_versions.JarBuildError) as err:
        spark_jars.find_spark_jars(lv, download=False)
    assert str(err.value).endswith(
        f"does not hold Spark {lv['spark.version']} (found no spark-core)."
    )
    import pyspark

    jars = Path(pyspark.__file__).parent / "jars"
    monkeypatch.setenv(f"COLSEM_SPARK_JARS_{running_line().replace('.', '_')}", str(jars))
    assert spark_jars.find_spark_jars(lv, download=False) == jars


# ---------------------------------------------------------------------------------------------
# The Makefile's SPARK switch (dry runs)


def make_dry_run(*args: str) -> subprocess.CompletedProcess:
    # Not the variables of a make this suite runs under (`make test SPARK=3.5 PYTEST_ARGS=...`
    # passes them down in the environment).
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "SPARK", "PYTEST_ARGS")
    }
    return subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, env=env)


def test_make_switch_picks_the_lines_venv_and_sbt_line():
    out = make_dry_run("pytest", "sbt-test", "SPARK=3.5").stdout
    assert ".venv-3.5/bin/python -m pytest" in out
    assert "pyspark[connect]==3.5.9" in out or (ROOT / ".venv-3.5" / ".deps-test").exists()
    assert f"COLSEM_PYTHON={ROOT}/.venv-3.5/bin/python java -Dcolsem.line=3.5 " in out
    default = make_dry_run("pytest").stdout
    assert ".venv/bin/python -m pytest" in default and ".venv-" not in default


def test_make_tiers_select_by_marker_and_build_what_they_run():
    """`make test` and `make test-line` compile the running line's jar (COLSEM_JAR_LINES) and leave
    the long tier out; `make test-long` runs it on a package with every line's jar."""
    stamps = [ROOT / ".venv-4.2" / name for name in (".installed-line", ".installed-all")]
    if any(stamp.exists() for stamp in stamps):
        pytest.skip(".venv-4.2 is installed: make -n would not show the install")
    test = make_dry_run("test", "SPARK=4.2").stdout
    assert "COLSEM_JAR_LINES=4.2 .venv-4.2/bin/python -m pip install" in test
    assert '-m "not long and not formats"' in test
    line = make_dry_run("test-line", "SPARK=4.2").stdout
    assert '-m "not long and not once and not formats"' in line
    also = make_dry_run("test-line", "SPARK=4.2", "LINE_ALSO=corpus").stdout
    assert '-m "(not long and not once and not formats) or (corpus)"' in also
    # A line's own files beside the wide suite's: 3.5's ways in, none on 4.2.
    assert "tests/test_golden.py" in line and "tests/test_ways_in.py" not in line
    older = make_dry_run("test-line", "SPARK=3.5").stdout
    assert "tests/test_golden.py" in older and "tests/test_ways_in.py" in older
    long = make_dry_run("test-long", "SPARK=4.2").stdout
    assert "COLSEM_JAR_LINES" not in long and ".venv-4.2/bin/python -m pip install" in long
    assert '-m "long"' in long


def test_make_publish_local_publishes_every_line():
    out = make_dry_run("publish-local").stdout
    assert f"for line in {' '.join(LINES)}; do" in out


def test_make_smoke_runs_the_smoke_selection():
    out = make_dry_run("smoke", "SPARK=4.2").stdout
    # The jar the package carries goes to Maven as it is: no second compile by sbt.
    assert ".venv-4.2/bin/python buildtools/maven_bundle.py --line 4.2 --publish-m2 " in out
    assert "publishM2" not in out
    # One smoke list: make smoke runs the ids `make dist-check` (buildtools/release.py) reads.
    smoke = " ".join(f"'{test}'" for test in release.smoke_tests())
    assert f".venv-4.2/bin/python -m pytest -n 2 --dist loadfile --durations=15 {smoke} \n" in out


def test_publish_m2_puts_the_packaged_jar_and_a_dependency_free_pom_in_maven_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    line = running_line()
    lv = line_versions(VERSIONS, line)
    folder = maven_bundle.publish_m2(line, tmp_path)
    group, artifact, version = build_versions.maven_coordinate(lv).split(":")
    assert folder == tmp_path.joinpath(*group.split("."), artifact, version)
    assert sorted(p.name for p in folder.iterdir()) == [
        f"{artifact}-{version}.jar",
        f"{artifact}-{version}.pom",
    ]
    assert (folder / f"{artifact}-{version}.jar").read_bytes() == Path(
        colsem.jar_path()
    ).read_bytes()
    pom = (folder / f"{artifact}-{version}.pom").read_text()
    assert f"<groupId>{group}</groupId>" in pom and f"<artifactId>{artifact}</artifactId>" in pom
    assert f"<version>{version}</version>" in pom and "<dependencies>" not in pom
    capsys.readouterr()
    assert maven_bundle.main(["--publish-m2", str(tmp_path)]) == 1
    assert capsys.readouterr().err == "error: --publish-m2 needs --line: the lines to publish\n"


def test_make_refuses_an_unknown_line():
    proc = make_dry_run("pytest", "SPARK=3.4")
    assert proc.returncode != 0
    assert (
        "SPARK=3.4 is not one of the Spark lines in jvm/versions.properties: 3.5 4.0 4.1 4.2 4.3"
        in proc.stderr
    )


# ---------------------------------------------------------------------------------------------
# A jar on the wrong line: one error line, an untouched session, no linkage error in a query


PROBE = (
    SESSION_PRELUDE
    + """
jar = sys.argv[1]
spark = local_builder().config("spark.jars", jar).config("spark.sql.extensions", "{ext}").getOrCreate()
emit(status=status_of(spark), rows=[list(r) for r in spark.sql("SELECT 1 + 1 AS two").collect()],
     version=spark.version)
""".replace("{ext}", EXT)
)


def guard_line(built_line: str, built_binary: str, running_version: str, running_scala: str) -> str:
    return (
        f"[COLSEM_INCOMPATIBLE_SPARK] colsem {colsem.__version__} was built for Spark {built_line} "
        f"(Scala {built_binary}) but this is Spark {running_version} (Scala {running_scala}). "
        "colsem injected nothing into this session; queries run as in vanilla Spark."
    )


def assert_refused(proc: subprocess.CompletedProcess, expected: str) -> None:
    out = result_of(proc)
    assert out["rows"] == [[2]]
    assert out["status"]["active"] == "false"
    assert out["status"]["error"].startswith(
        "AnalysisException: [UNRESOLVABLE_TABLE_VALUED_FUNCTION]"
    )
    assert proc.stderr.count(expected) == 1, proc.stderr[-4000:]
    assert proc.stderr.count("COLSEM_INCOMPATIBLE_SPARK") == 1, proc.stderr[-4000:]
    for error in LINKAGE_ERRORS:
        assert error not in proc.stderr, proc.stderr[-4000:]


@pytest.mark.long
@pytest.mark.other_scala_line
def test_this_lines_jar_on_a_real_session_of_the_other_scala_line(log4j_file: Path):
    line = other_line()
    python = venv_python(line)
    if python is None:
        pytest.skip(f"no venv for Spark {line}: `make venv SPARK={line}` creates it (CI does)")
    lv = line_versions(VERSIONS, line)
    proc = run_python(
        PROBE,
        launcher=[str(python)],
        args=[colsem.jar_path()],
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_SUBMIT_ARGS": f"--driver-java-options -Dlog4j2.configurationFile={log4j_file} pyspark-shell",
        },
    )
    info = colsem.build_info()
    assert result_of(proc)["version"] == lv["spark.version"]
    assert_refused(
        proc,
        guard_line(info.spark_line, info.scala_binary, lv["spark.version"], lv["scala.version"]),
    )


OTHER_JARS = [b for b in colsem.builds() if b.spark_line != running_line()]


@pytest.mark.long
@pytest.mark.other_scala_line
@pytest.mark.parametrize("info", OTHER_JARS or [None], ids=lambda b: b.spark_line if b else "none")
def test_bundled_jars_of_other_lines_are_refused_here(info, log4j_file: Path):
    if info is None:
        pytest.skip("the package carries no jar of another line")
    lv = line_versions(VERSIONS, running_line())
    jar = Path(colsem.__file__).parent / "jars" / info.jar
    proc = run_python(
        PROBE,
        args=[str(jar)],
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_SUBMIT_ARGS": f"--driver-java-options -Dlog4j2.configurationFile={log4j_file} pyspark-shell",
        },
    )
    assert_refused(
        proc,
        guard_line(info.spark_line, info.scala_binary, lv["spark.version"], lv["scala.version"]),
    )


def other_line_spark_jars(line: str) -> Path | None:
    """That line's Spark jars without downloading: the build's cache or the line's venv."""
    lv = line_versions(VERSIONS, line)
    try:
        return spark_jars.find_spark_jars(lv, download=False)
    except build_versions.JarBuildError:
        pass
    python = venv_python(line)
    if python is not None:
        for jars in python.parent.parent.glob("lib/python3*/site-packages/pyspark/jars"):
            if spark_jars.spark_version_of(jars, lv["scala.binary"]) == lv["spark.version"]:
                return jars
    return None


@pytest.mark.long
@pytest.mark.other_scala_line
def test_the_guard_compiled_for_the_other_scala_line_reports_here(tmp_path: Path, log4j_file: Path):
    """BuildInfo and VersionGuard, compiled with the other line's Scala (2.12 here on Spark 4),
    with an entry class shaped like ColsemExtensions: one clear error on this line, no linkage
    error (2.12 lambdas and `s"..."` do not link on 2.13)."""
    line = other_line()
    jars = other_line_spark_jars(line)
    if jars is None:
        pytest.skip(
            f"no Spark {line} jars here: `make venv SPARK={line}` (CI does) or a build of {line}"
        )
    lv = line_versions(VERSIONS, line)
    main = ROOT / "jvm" / "src" / "main" / "scala" / "io" / "colsem"
    probe = compile_scala(
        [
            TESTS / "extensions" / "GuardProbe.scala",
            main / "jar" / "BuildInfo.scala",
            main / "guards" / "VersionGuard.scala",
        ],
        jars,
        tmp_path / "guard-probe.jar",
    )
    with zipfile.ZipFile(probe, "a") as jar:
        jar.writestr(build_jar.BUILD_PROPERTIES, build_jar.build_properties(lv, "0" * 64))
    proc = run_python(
        PROBE.replace(EXT, "io.colsem.probe.GuardProbe"),
        args=[str(probe)],
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_SUBMIT_ARGS": f"--driver-java-options -Dlog4j2.configurationFile={log4j_file} pyspark-shell",
        },
    )
    here = line_versions(VERSIONS, running_line())
    assert_refused(
        proc,
        "ERROR ColsemExtensions: "
        + guard_line(line, lv["scala.binary"], here["spark.version"], here["scala.version"]),
    )


@pytest.mark.long
@pytest.mark.other_scala_line
def test_the_package_on_the_other_lines_pyspark(tmp_path: Path):
    """The installed package (copied beside the other line's pyspark) imports there, and configure
    either loads that line's jar or refuses with UnsupportedSparkVersion; status works on a
    session without colsem."""
    line = other_line()
    python = venv_python(line)
    if python is None:
        pytest.skip(f"no venv for Spark {line}: `make venv SPARK={line}` creates it (CI does)")
    shutil.copytree(Path(colsem.__file__).parent, tmp_path / "colsem")
    proc = run_python(
        SESSION_PRELUDE
        + """
import colsem
try:
    spark = colsem.configure(local_builder()).getOrCreate()
    emit(configured=True, status=colsem.status(spark))
except colsem.UnsupportedSparkVersion as exc:
    spark = local_builder().getOrCreate()
    emit(configured=False, error=str(exc), status=colsem.status(spark))
""",
        launcher=[str(python)],
        env={"COLSEM_AUTOREGISTER": "0", "PYTHONPATH": str(tmp_path)},
    )
    out = result_of(proc)
    lv = line_versions(VERSIONS, line)
    if colsem._jars.build_for(lv["spark.version"]) is not None:
        assert out["configured"] is True
        assert out["status"]["active"] == "true"
        assert out["status"]["built_for_spark"] == line
        assert out["status"]["running_spark"] == lv["spark.version"]
    else:
        assert out["configured"] is False
        assert out["error"] == colsem._jars.unsupported_message(lv["spark.version"])
        assert out["status"]["active"] == "false"
