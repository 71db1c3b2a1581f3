"""Guards: unsupported pyspark, Spark Connect clients, invalid settings, the single-pass analyzer."""

from __future__ import annotations

import colsem
import pytest
from build_jar_access import line_versions, read_versions, running_line
from golden import condition
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession


def test_status_of_the_shared_session(spark):
    # Spark's single-pass resolver keys differ per line: tests/test_single_pass.py checks them.
    status = {k: v for k, v in colsem.status(spark).items() if not k.startswith("spark.sql.")}
    info = colsem.build_info()
    assert status == {
        "active": "true",
        "version": info.version,
        "built_for_spark": info.spark_line,
        "built_for_scala": info.scala_binary,
        "running_spark": spark.version,
        "running_scala": line_versions(read_versions(), running_line())["scala.version"],
        "single_pass_resolver": "off",
        "single_pass_resolver.trigger": "",
        "single_pass_resolver.environment": "",
        "single_pass_resolver.colsem": "none: the fixed-point analyzer runs colsem's rules on every "
        "query",
        "spark.colsem.enabled": "true",
        "spark.colsem.singlePassResolver.policy": "error",
        "spark.colsem.lateralAlias.enabled": "true",
        "spark.colsem.lateralAlias.maxDepth": "400",
        "spark.colsem.lateralAlias.extraScopes": "",
        "spark.colsem.star.exclude": "",
        "spark.colsem.star.excludePattern": "",
        "spark.colsem.invariants": "off",
        "spark.colsem.naming.dialect": "spark",
    }


def test_unsupported_pyspark_fails_at_configure_listing_supported_versions(monkeypatch):
    import pyspark

    monkeypatch.setattr(pyspark, "__version__", "3.4.1")
    with pytest.raises(colsem.UnsupportedSparkVersion) as err:
        colsem.configure(SparkSession.builder)
    lines = ", ".join(
        f"{b.spark_line} (pyspark {b.pyspark_supported}, Scala {b.scala_binary})"
        for b in colsem.builds()
    )
    assert str(err.value) == (
        f"colsem 0.1.0 carries jars for Spark {lines} but pyspark 3.4.1 is installed. Install a "
        f"supported pyspark (pip install 'pyspark{colsem.pyspark_supported()}') or a colsem build "
        "for your Spark line."
    )


@pytest.mark.parametrize(
    "version,supported",
    [
        ("4.3.0", True),
        ("4.3.2", True),
        ("4.3.0.dev1", True),
        ("4.4.0", False),
        ("4.2.1", False),
        ("3.5.8", False),
    ],
)
def test_supported_range(version, supported):
    assert colsem._jars.is_supported(version, ">=4.3.0,<4.4") is supported


@pytest.mark.parametrize(
    "version,supported",
    [
        ("3.4.4", False),
        ("3.5.0", True),
        ("3.5.9", True),
        ("4.0.5", True),
        ("4.1.0", False),
        ("4.1.4", False),
        ("4.2.1", True),
        ("4.3.0", True),
        ("4.4.0", False),
    ],
)
def test_supported_range_with_excluded_lines(version, supported):
    assert colsem._jars.is_supported(version, ">=3.5.0,!=4.1.*,<4.4") is supported


def test_configure_on_a_connect_builder_explains_the_server_side_setup():
    builder = SparkSession.builder.remote("sc://localhost:15002")
    with pytest.raises(colsem.ColsemConnectError) as err:
        colsem.configure(builder)
    message = str(err.value)
    assert message.startswith("colsem runs inside the Spark Connect server, not in the client")
    assert f"--jars {colsem.jar_path()}" in message
    assert f"--packages {colsem.maven_coordinate()}" in message
    assert "--conf spark.sql.extensions=io.colsem.ColsemExtensions" in message


def _error(session, sql):
    with pytest.raises(AnalysisException) as err:
        session.sql(sql).collect()
    return err.value


def test_invalid_value_fails_the_next_query_with_key_value_and_allowed_values(spark):
    session = spark.newSession()
    session.sql("SET spark.colsem.singlePassResolver.policy=loud")
    err = _error(session, "SELECT s1 FROM t1")
    assert condition(err) == "COLSEM_INVALID_CONF_VALUE"
    assert err.getSqlState() == "22022"
    assert dict(err.getMessageParameters()) == {
        "confName": "spark.colsem.singlePassResolver.policy",
        "confValue": "loud",
        "allowedValues": "warn, error",
        "default": "error",
    }
    session.sql("RESET spark.colsem.singlePassResolver.policy")
    assert session.sql("SELECT count(*) AS n FROM t1").first()["n"] == 4


def test_misspelt_key_is_an_error_not_silence(spark):
    session = spark.newSession()
    session.conf.set("spark.colsem.enable", "false")
    err = _error(session, "SELECT 1")
    assert condition(err) == "COLSEM_UNKNOWN_CONF"
    assert err.getSqlState() == "42K0I"
    assert err.getMessageParameters()["suggestion"] == " Did you mean 'spark.colsem.enabled'?"


def test_single_pass_analyzer_error_policy(spark):
    session = spark.newSession()
    session.conf.set("spark.sql.analyzer.singlePassResolver.enabled", "true")
    if running_line() in ("3.5", "4.0"):
        # 3.5: no single-pass analyzer, the key means nothing. 4.0: its single-pass analyzer runs
        # no check rule, so the guard never sees the query (docs/versions.md).
        assert session.sql("SELECT 1 AS one").first()["one"] == 1
        return
    err = _error(session, "SELECT 1 AS one")
    assert condition(err) == "COLSEM_SINGLE_PASS_RESOLVER"
    assert err.getSqlState() == "0A000"
    session.conf.set("spark.colsem.singlePassResolver.policy", "warn")
    assert session.sql("SELECT 1 AS one").first()["one"] == 1
