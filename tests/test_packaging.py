"""The wheel carries one jar per Spark line, their build record and the auto-registration hook, all
consistent with jvm/versions.properties (the one source of truth for versions)."""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import colsem
import pytest
from build_jar_access import build_versions, line_versions, read_versions, running_line
from conftest import ROOT

# Line-independent (CI runs it on the default line only). The package's files, the same wheel on
# every line; the checks that need every line's jar are long.
pytestmark = pytest.mark.once

VERSIONS = read_versions()
LINES = build_versions.all_lines(VERSIONS)


def test_build_needs_no_pyspark_requirement():
    """Each line's Spark jars are found or downloaded by spark_jars.py, not pip-installed."""
    build_system = (ROOT / "pyproject.toml").read_text().split("[project]")[0]
    assert 'requires = ["hatchling>=1.27", "packaging>=24.2", "pip"]' in build_system


@pytest.mark.long
def test_installed_package_has_one_jar_per_line():
    assert [b.spark_line for b in colsem.builds()] == LINES
    assert colsem.__version__ == VERSIONS["colsem.version"]
    assert colsem.pyspark_supported() == build_versions.supported_union(VERSIONS, LINES)
    for info in colsem.builds():
        lv = line_versions(VERSIONS, info.spark_line)
        artifact = f"colsem-spark-{info.spark_line}_{lv['scala.binary']}"
        assert info.version == VERSIONS["colsem.version"]
        assert (info.spark_version, info.scala_binary, info.pyspark_supported) == (
            lv["spark.version"],
            lv["scala.binary"],
            lv["pyspark.supported"],
        )
        assert (
            info.maven_coordinate
            == f"{VERSIONS['maven.group']}:{artifact}:{VERSIONS['colsem.version']}"
        )
        assert info.jar == f"{artifact}-{VERSIONS['colsem.version']}.jar"


def test_the_running_pyspark_gets_its_lines_jar():
    info = colsem.build_info()
    assert info.spark_line == running_line()
    assert Path(colsem.jar_path()).name == info.jar


@pytest.mark.long
@pytest.mark.parametrize("line", LINES)
def test_jar_contents(line: str):
    info = next(b for b in colsem.builds() if b.spark_line == line)
    with zipfile.ZipFile(Path(colsem.__file__).parent / "jars" / info.jar) as jar:
        names = set(jar.namelist())
        services = jar.read("META-INF/services/org.apache.spark.sql.SparkSessionExtensionsProvider")
        props = jar.read("io/colsem/colsem-build.properties").decode()
    assert services.decode().strip() == "io.colsem.ColsemExtensions"
    assert {"io/colsem/ColsemExtensions.class", "error/colsem-error-conditions.json"} <= names
    lv = line_versions(VERSIONS, line)
    assert props.splitlines()[:5] == [
        f"colsem.version={VERSIONS['colsem.version']}",
        f"spark.version={lv['spark.version']}",
        f"spark.line={line}",
        f"scala.binary={lv['scala.binary']}",
        f"pyspark.supported={lv['pyspark.supported']}",
    ]
    assert re.search(r"^source\.fingerprint=[0-9a-f]{64}$", props, re.M)


def test_autoregistration_hook_is_installed():
    pth = Path(sysconfig.get_paths()["purelib"]) / "colsem_autoregister.pth"
    assert pth.read_text().strip() == "import colsem_autoregister"


def test_autoregistration_hook_imports_nothing_at_startup():
    code = (
        "import sys; print(sorted(m for m in sys.modules if m.startswith(('colsem', 'pyspark'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['colsem_autoregister']"


def test_cli_prints_jar_and_coordinate():
    def run(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "colsem", *args], capture_output=True, text=True, check=True
        ).stdout.strip()

    assert run("jar") == colsem.jar_path()
    assert run("coordinate") == colsem.maven_coordinate()


@pytest.mark.long
def test_wheel_from_source_contains_jar_and_hook(tmp_path: Path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    wheel = next(tmp_path.glob("colsem-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"colsem-{VERSIONS['colsem.version']}.dist-info/METADATA").decode()
    assert {f"colsem/jars/{b.jar}" for b in colsem.builds()} == {
        n for n in names if n.startswith("colsem/jars/") and n.endswith(".jar")
    }
    assert {
        "colsem/jars/build.json",
        "colsem_autoregister.pth",
        "colsem_autoregister.py",
        "colsem/py.typed",
    } <= names
    from packaging.requirements import Requirement

    requires = [
        Requirement(line.split(":", 1)[1])
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    ]
    # No required dependency (colsem installs beside pyspark-client); the pyspark extra brings
    # the pyspark colsem's jars run on.
    assert [r for r in requires if r.marker is None] == []
    pyspark_extra = [
        (r.name, str(r.specifier))
        for r in requires
        if r.marker is not None and r.marker.evaluate({"extra": "pyspark"})
    ]
    assert pyspark_extra == [
        (
            "pyspark",
            str(Requirement(f"pyspark{build_versions.supported_union(VERSIONS, LINES)}").specifier),
        )
    ]


def test_without_pyspark_colsem_says_how_to_install_it():
    code = "import sys; sys.modules['pyspark'] = None; from colsem.__main__ import main; sys.exit(main(['jar']))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "colsem: pyspark is not installed. `pip install 'colsem[pyspark]'` installs a pyspark colsem "
        f"carries a jar for (pyspark{colsem.pyspark_supported()}); a Spark Connect client needs only "
        "pyspark-client.\n"
    )
