"""The ways a Spark user gets colsem into a session, each in a fresh JVM, each checked by asking
the session itself (SELECT * FROM colsem_status())."""

from __future__ import annotations

import os
import shutil
import sys
import zipfile
from pathlib import Path

import colsem
import pytest
from build_jar_access import line_versions, maven_bundle, read_versions, running_line
from conftest import SESSION_PRELUDE, result_of, run_python

EXT = "io.colsem.ColsemExtensions"


def test_config_way_spark_jars_and_extensions():
    proc = run_python(
        SESSION_PRELUDE
        + f"""
import colsem
spark = (local_builder().config("spark.jars", colsem.jar_path())
         .config("spark.sql.extensions", "{EXT}").getOrCreate())
emit(status=status_of(spark), extensions=spark.conf.get("spark.sql.extensions"))
""",
        env={"COLSEM_AUTOREGISTER": "0"},
    )
    out = result_of(proc)
    assert out["extensions"] == EXT
    assert out["status"]["active"] == "true"
    assert out["status"]["version"] == colsem.build_info().version
    assert out["status"]["built_for_spark"] == running_line()


def test_pip_install_autoregisters_a_plain_getorcreate():
    proc = run_python(
        SESSION_PRELUDE
        + """
spark = local_builder().getOrCreate()
emit(status=status_of(spark), jars=spark.sparkContext.getConf().get("spark.jars"),
     extensions=spark.conf.get("spark.sql.extensions"))
"""
    )
    out = result_of(proc)
    assert out["status"]["active"] == "true"
    assert out["jars"] == colsem.jar_path()
    assert out["extensions"] == EXT
    assert "colsem was not registered" not in proc.stderr


def test_autoregister_env_zero_leaves_spark_vanilla():
    proc = run_python(
        SESSION_PRELUDE
        + """
spark = local_builder().getOrCreate()
conf = spark.sparkContext.getConf()
emit(status=status_of(spark), jars=conf.get("spark.jars", None),
     extensions=conf.get("spark.sql.extensions", None))
""",
        env={"COLSEM_AUTOREGISTER": "0"},
    )
    out = result_of(proc)
    assert out["status"]["active"] == "false"
    assert out["status"]["error"].startswith(
        "AnalysisException: [UNRESOLVABLE_TABLE_VALUED_FUNCTION]"
    )
    assert out["jars"] is None
    assert out["extensions"] is None


def test_autoregister_merges_the_users_jars_and_extensions(user_extension_jar: Path):
    proc = run_python(
        SESSION_PRELUDE
        + f"""
spark = (local_builder().config("spark.jars", "{user_extension_jar}")
         .config("spark.sql.extensions", "com.example.UserExtension").getOrCreate())
emit(status=status_of(spark), marker=spark.sql("SELECT user_ext_marker() AS m").first()["m"],
     jars=spark.sparkContext.getConf().get("spark.jars"),
     extensions=spark.conf.get("spark.sql.extensions"))
"""
    )
    out = result_of(proc)
    assert out["marker"] == "user-extension"
    assert out["status"]["active"] == "true"
    assert out["jars"] == f"{user_extension_jar},{colsem.jar_path()}"
    assert out["extensions"] == f"com.example.UserExtension,{EXT}"


def test_configure_merges_values_from_spark_defaults(user_extension_jar: Path, workdir: Path):
    conf_dir = workdir / "conf-defaults"
    conf_dir.mkdir(exist_ok=True)
    (conf_dir / "spark-defaults.conf").write_text(
        "# a platform team's defaults\n"
        f"spark.jars                {user_extension_jar}\n"
        "spark.sql.extensions=com.example.UserExtension\n"
    )
    proc = run_python(
        SESSION_PRELUDE
        + """
import colsem
spark = colsem.configure(local_builder()).getOrCreate()
emit(status=status_of(spark), marker=spark.sql("SELECT user_ext_marker() AS m").first()["m"],
     extensions=spark.conf.get("spark.sql.extensions"))
""",
        env={"COLSEM_AUTOREGISTER": "0", "SPARK_CONF_DIR": str(conf_dir)},
    )
    out = result_of(proc)
    assert out["marker"] == "user-extension"
    assert out["status"]["active"] == "true"
    assert out["extensions"] == f"com.example.UserExtension,{EXT}"


def test_configure_sets_colsem_options_and_is_idempotent(spark):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.config("spark.sql.extensions", "a.B")
    colsem.configure(builder, {"spark.colsem.singlePassResolver.policy": "error"})
    colsem.configure(builder)
    assert builder._options["spark.sql.extensions"] == f"a.B,{EXT}"
    assert builder._options["spark.colsem.singlePassResolver.policy"] == "error"


def _published(repo: Path) -> Path:
    info = colsem.build_info()
    group, artifact, version = info.maven_coordinate.split(":")
    folder = repo / group.replace(".", "/") / artifact / version
    jar = folder / f"{artifact}-{version}.jar"
    if not jar.exists():
        pytest.fail(
            f"{jar} does not exist: `make publish-local` (sbt publishM2) publishes it; "
            "`make test` runs it before pytest."
        )
    return folder


def test_spark_submit_packages_from_the_local_maven_repository(workdir: Path):
    import pyspark

    repo = Path(os.environ.get("COLSEM_M2_REPO", Path.home() / ".m2" / "repository"))
    folder = _published(repo)
    pom = next(folder.glob("*.pom")).read_text()
    # One POM writer: what sbt publishM2 (`make test`) or `maven_bundle.py --publish-m2` (`make
    # smoke`) published is the POM the wheel's Maven bundles carry.
    assert pom == maven_bundle.pom(line_versions(read_versions(), running_line()))
    # Spark provides Spark and Scala; a POM listing them would make --packages pull them again.
    assert "<artifactId>spark-" not in pom and "scala-library" not in pom.split("<scope>test")[0]
    ivy = workdir / "ivy"
    shutil.rmtree(ivy, ignore_errors=True)
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
        colsem.maven_coordinate(),
    ]
    proc = run_python(
        SESSION_PRELUDE
        + """
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
emit(status=status_of(spark), jars=spark.sparkContext.getConf().get("spark.jars", ""))
""",
        launcher=submit,
        env={"PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable},
    )
    out = result_of(proc)
    assert out["status"]["active"] == "true"
    assert out["status"]["version"] == colsem.build_info().version
    # The jar came from the Maven repository through Ivy, not from the wheel.
    assert str(ivy) in out["jars"] and colsem.jar_path() not in out["jars"]
    assert "colsem was not registered" not in proc.stderr


def test_version_guard_leaves_a_mismatched_session_untouched(workdir: Path, log4j_file: Path):
    """A jar whose build says another Spark line (what a wrong-line jar carries) injects nothing."""
    line = running_line()
    other = "3.5" if line != "3.5" else read_versions()["default.line"]
    wrong = workdir / f"colsem-built-for-{other}.jar"
    with zipfile.ZipFile(colsem.jar_path()) as src, zipfile.ZipFile(wrong, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "io/colsem/colsem-build.properties":
                data = data.replace(f"spark.line={line}".encode(), f"spark.line={other}".encode())
            dst.writestr(item, data)
    proc = run_python(
        SESSION_PRELUDE
        + f"""
spark = (local_builder().config("spark.jars", "{wrong}")
         .config("spark.sql.extensions", "{EXT}").getOrCreate())
emit(status=status_of(spark), rows=[list(r) for r in spark.sql("SELECT 1 + 1 AS two").collect()],
     version=spark.version)
""",
        env={
            "COLSEM_AUTOREGISTER": "0",
            "PYSPARK_SUBMIT_ARGS": f"--driver-java-options -Dlog4j2.configurationFile={log4j_file} pyspark-shell",
        },
    )
    out = result_of(proc)
    assert out["status"]["active"] == "false"
    assert out["rows"] == [[2]]
    running_scala = line_versions(read_versions(), line)["scala.version"]
    expected = (
        f"[COLSEM_INCOMPATIBLE_SPARK] colsem {colsem.build_info().version} was built for "
        f"Spark {other} (Scala {colsem.build_info().scala_binary}) but this is Spark "
        f"{out['version']} (Scala {running_scala})."
    )
    assert proc.stderr.count(expected) == 1, proc.stderr[-4000:]
    assert "NoSuchMethodError" not in proc.stderr
