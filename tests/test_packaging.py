"""The wheel carries the jar, its build record and the auto-registration hook, all consistent with
jvm/versions.properties (the one source of truth for versions)."""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import colsem
from build_jar_access import read_versions
from conftest import ROOT

VERSIONS = read_versions()


def test_build_requirement_pins_the_compile_spark():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'"pyspark=={VERSIONS["spark.version"]}"' in pyproject.split("[project]")[0]


def test_installed_build_record_matches_versions_file():
    info = colsem.build_info()
    artifact = f"colsem-spark-{VERSIONS['spark.line']}_{VERSIONS['scala.binary']}"
    assert info.version == VERSIONS["colsem.version"] == colsem.__version__
    assert info.spark_version == VERSIONS["spark.version"]
    assert info.pyspark_supported == VERSIONS["pyspark.supported"]
    assert info.maven_coordinate == f"{VERSIONS['maven.group']}:{artifact}:{VERSIONS['colsem.version']}"
    assert Path(colsem.jar_path()).name == f"{artifact}-{VERSIONS['colsem.version']}.jar"


def test_jar_contents():
    with zipfile.ZipFile(colsem.jar_path()) as jar:
        names = set(jar.namelist())
        services = jar.read("META-INF/services/org.apache.spark.sql.SparkSessionExtensionsProvider")
        props = jar.read("io/colsem/colsem-build.properties").decode()
    assert services.decode().strip() == "io.colsem.ColsemExtensions"
    assert {"io/colsem/ColsemExtensions.class", "error/colsem-error-conditions.json"} <= names
    assert f"spark.line={VERSIONS['spark.line']}\n" in props
    assert re.search(r"^source\.fingerprint=[0-9a-f]{64}$", props, re.M)


def test_autoregistration_hook_is_installed():
    pth = Path(sysconfig.get_paths()["purelib"]) / "colsem_autoregister.pth"
    assert pth.read_text().strip() == "import colsem_autoregister"


def test_autoregistration_hook_imports_nothing_at_startup():
    code = "import sys; print(sorted(m for m in sys.modules if m.startswith(('colsem', 'pyspark'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['colsem_autoregister']"


def test_cli_prints_jar_and_coordinate():
    run = lambda *args: subprocess.run([sys.executable, "-m", "colsem", *args], capture_output=True,
                                       text=True, check=True).stdout.strip()
    assert run("jar") == colsem.jar_path()
    assert run("coordinate") == colsem.maven_coordinate()


def test_wheel_from_source_contains_jar_and_hook(tmp_path: Path):
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True, text=True)
    wheel = next(tmp_path.glob("colsem-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"colsem-{VERSIONS['colsem.version']}.dist-info/METADATA").decode()
    assert f"colsem/jars/{Path(colsem.jar_path()).name}" in names
    assert {"colsem/jars/build.json", "colsem_autoregister.pth", "colsem_autoregister.py",
            "colsem/py.typed"} <= names
    from packaging.requirements import Requirement

    requires = [Requirement(line.split(":", 1)[1]) for line in metadata.splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert [(r.name, r.specifier) for r in requires] == [
        ("pyspark", Requirement(f"pyspark{VERSIONS['pyspark.supported']}").specifier)]
