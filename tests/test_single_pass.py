"""Spark's single-pass analyzer in every mode Spark 4.3 ships: colsem answers with its rules, or
refuses with COLSEM_SINGLE_PASS_RESOLVER; colsem.status tells the effective mode."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import colsem
import pytest
from build_jar_access import running_line
from golden import condition
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession

pytestmark = pytest.mark.skipif(
    running_line() not in ("4.1", "4.2", "4.3"),
    reason="the single-pass analyzer runs check rules from Spark 4.1 (docs/versions.md)",
)

PREFIX = "spark.sql.analyzer.singlePassResolver."

# Each mode, as settings; the environment's tentative mode is test_tentative_from_the_environment.
MODES = {
    "tentative": {PREFIX + "enabledTentatively": "true"},
    "dual_run": {PREFIX + "dualRunWithLegacy": "true", PREFIX + "dualRunSampleRate": "1.0"},
    "dual_run_single_pass_result": {
        PREFIX + "dualRunWithLegacy": "true",
        PREFIX + "dualRunSampleRate": "1.0",
        PREFIX + "returnSinglePassResultInDualRun": "true",
    },
}

# The queries of issue 56: star hiding (star.exclude=TAGGED) and the lateral aliases native Spark
# refuses (in a window, inside an aggregate's argument, GROUP BY over a lateral alias).
QUERIES = {
    "SELECT * FROM sp_events ORDER BY id": [(1, "a"), (2, "b")],
    "SELECT * FROM sp_events WHERE id = 2": [(2, "b")],
    "SELECT s1 * 2 AS d, sum(d) OVER () AS w FROM t1 ORDER BY d": [
        (2, 18),
        (4, 18),
        (6, 18),
        (6, 18),
    ],
    "SELECT 10 AS ten, sum(s1 * ten) AS total FROM t1": [(10, 90)],
    "SELECT s1 AS a, a + 1 AS b, count(*) AS c FROM t1 GROUP BY a, b ORDER BY a": [
        (1, 2, 1),
        (2, 3, 1),
        (3, 4, 2),
    ],
}


@pytest.fixture(scope="module")
def events(spark: SparkSession) -> Iterator[None]:
    spark.sql(
        "CREATE TABLE sp_events (id INT, name STRING, _row_id BIGINT) USING parquet "
        "TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')"
    )
    spark.sql("INSERT INTO sp_events VALUES (1, 'a', 10), (2, 'b', 20)")
    yield
    spark.sql("DROP TABLE sp_events")


def _session(spark: SparkSession, settings: dict[str, str]) -> SparkSession:
    session = spark.newSession()
    session.conf.set("spark.colsem.star.exclude", "TAGGED")
    for key, value in settings.items():
        session.conf.set(key, value)
    return session


# The lateral aliases Spark's single-pass resolver fails on by itself, before any check rule runs
# (docs/versions.md): colsem's parser sends them to the fixed-point analyzer before Spark chooses
# (io.colsem.guards.FixedPointRoute), or refuses them there under the forced mode.
SINGLE_PASS_FAILS = {
    "SELECT 10 AS ten, sum(s1 * ten) AS total FROM t1",
    "SELECT s1 AS a, a + 1 AS b, count(*) AS c FROM t1 GROUP BY a, b ORDER BY a",
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("query", list(QUERIES))
def test_colsem_answers_under_each_mode_with_a_fall_back(spark, events, mode, query):
    df = _session(spark, MODES[mode]).sql(query)
    assert [tuple(r) for r in df.collect()] == QUERIES[query]
    if query.startswith("SELECT * FROM sp_events"):
        assert df.columns == ["id", "name"]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_routed_query_analyzes_as_without_the_mode(spark, mode):
    """The parser's COLSEM_FIXED_POINT hint is in the parsed plan only: the analyzed plan is the
    one a session without the mode gets."""
    query = "SELECT 10 AS ten, sum(s1 * ten) AS total FROM t1"
    routed = _session(spark, MODES[mode]).sql(query)._jdf.queryExecution()
    plain = _session(spark, {}).sql(query)._jdf.queryExecution()
    assert "COLSEM_FIXED_POINT" in routed.logical().toString()
    assert "COLSEM_FIXED_POINT" not in plain.logical().toString()
    assert _normalized(routed.analyzed()) == _normalized(plain.analyzed())


def _normalized(plan) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"#\d+L?", "#x", plan.toString())


@pytest.mark.parametrize("mode", sorted(MODES))
def test_naming_dialect_and_invariants_under_each_mode(spark, mode):
    session = _session(spark, MODES[mode])
    session.conf.set("spark.colsem.naming.dialect", "postgres")
    session.conf.set("spark.colsem.invariants", "error")
    df = session.sql("SELECT s1 + 1, upper(s2) FROM t1 WHERE s1 = 1")
    assert df.columns == ["?column?", "upper"]
    assert [tuple(r) for r in df.collect()] == [(2, "A")]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_status_tells_each_mode_and_what_colsem_does(spark, mode):
    status = colsem.status(_session(spark, MODES[mode]))
    name = "tentative" if mode == "tentative" else "dual_run"
    key = PREFIX + ("enabledTentatively" if mode == "tentative" else "dualRunWithLegacy")
    assert status["single_pass_resolver"] == name
    assert status["single_pass_resolver.trigger"] == f"{key}=true (setting)"
    assert status["single_pass_resolver.colsem"] == (
        "sends each query the single-pass resolver resolves back to the fixed-point analyzer, "
        "which runs colsem's rules"
    )
    for setting, value in MODES[mode].items():
        assert status[setting] == value


def test_status_off_by_default_lists_each_key_as_sqlconf_resolves_it(spark):
    status = colsem.status(spark.newSession())
    assert status["single_pass_resolver"] == "off"
    assert status["single_pass_resolver.trigger"] == ""
    assert status["spark.colsem.singlePassResolver.policy"] == "error"
    assert status[PREFIX + "enabled"] == "false"
    assert status[PREFIX + "enabledTentatively"] == "false"
    assert status[PREFIX + "dualRunWithLegacy"] == "false"


FORCED = {PREFIX + "enabled": "true"}


def test_forced_mode_refuses_what_reaches_colsem_naming_the_key_and_the_way_out(spark, events):
    session = _session(spark, FORCED)
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT * FROM sp_events").collect()
    assert condition(err.value) == "COLSEM_SINGLE_PASS_RESOLVER"
    assert err.value.getSqlState() == "0A000"
    assert err.value.getMessageParameters() == {
        "key": PREFIX + "enabled",
        "source": "setting",
        "turnOff": f"SET {PREFIX}enabled=false",
    }


@pytest.mark.parametrize(
    "query", sorted(SINGLE_PASS_FAILS | {"SELECT s1 * 2 AS d, sum(d) OVER () AS w FROM t1"})
)
def test_forced_mode_refuses_lateral_aliases_before_spark_fails_on_them(spark, query):
    """Spark's forced single-pass analyzer fails these itself, before any check rule runs: colsem's
    parser refuses them first with the error every other query gets under the forced mode (as a
    ParseException, all a parser may throw); under policy `warn` Spark's own error stands."""
    with pytest.raises(AnalysisException) as err:
        _session(spark, FORCED).sql(query).collect()
    assert condition(err.value) == "COLSEM_SINGLE_PASS_RESOLVER"
    assert err.value.getSqlState() == "0A000"
    assert err.value.getMessageParameters() == {
        "key": PREFIX + "enabled",
        "source": "setting",
        "turnOff": f"SET {PREFIX}enabled=false",
    }
    if query not in SINGLE_PASS_FAILS:
        return
    warn = _session(spark, {**FORCED, "spark.colsem.singlePassResolver.policy": "warn"})
    with pytest.raises(AnalysisException) as err:
        warn.sql(query).collect()
    assert condition(err.value) == (
        "INTERNAL_ERROR"
        if running_line() == "4.1"
        else "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_MISSING_FROM_INPUT"
    )


def test_forced_mode_under_policy_warn_lets_spark_answer_without_colsem(spark, events):
    session = _session(spark, {**FORCED, "spark.colsem.singlePassResolver.policy": "warn"})
    df = session.sql("SELECT * FROM sp_events ORDER BY id")
    assert df.columns == ["id", "name", "_row_id"]
    assert [tuple(r) for r in df.collect()] == [(1, "a", 10), (2, "b", 20)]


def test_status_answers_under_forced_mode(spark):
    status = colsem.status(_session(spark, FORCED))
    assert status["active"] == "true"
    assert status["single_pass_resolver"] == "forced"
    assert status["single_pass_resolver.trigger"] == f"{PREFIX}enabled=true (setting)"
    assert status["single_pass_resolver.colsem"] == (
        "refuses each query with COLSEM_SINGLE_PASS_RESOLVER "
        f"(to turn it off: SET {PREFIX}enabled=false)"
    )
    assert status[PREFIX + "enabled"] == "true"


# Every spark.sql.analyzer.singlePassResolver.* key of the installed Spark, and why colsem holds
# under it (docs/versions.md). A key not listed fails test_every_single_pass_key_is_classified:
# look at what it does before a release.
CLASSIFIED = {
    "dualRunSampleRate": "which dual runs happen; each is a dual run",
    "dualRunWithLegacy": "mode: dual run; the guard declines the single-pass leg",
    "enableAsOfJoinResolution": "what the single-pass resolver supports; falls back or forced",
    "enabled": "mode: forced; the guard refuses (policy error) or warns (policy warn)",
    "enabledTentatively": "mode: tentative; the guard declines, Spark falls back",
    "exposeResolverGuardFailure": "ResolverGuard errors; queries still reach the check rules",
    "preventUsingAliasesFromNonDirectChildren": "single-pass name resolution; never colsem's",
    "relationBridging.enabled": "relation cache shared in a dual run; results unchanged",
    "returnSinglePassResultInDualRun": "dual run: the declined leg returns the fixed-point plan",
    "runExtendedResolutionChecks": "false stops the check rules under single-pass: unguarded",
    "runHeavyExtendedResolutionChecks": "Spark's own heavy checks; not colsem's",
    "throwFromResolverGuard": "ResolverGuard errors; queries still reach the check rules",
    "validationEnabled": "validates the single-pass plan; not colsem's",
}


def test_every_single_pass_key_is_classified(spark):
    sqlconf = getattr(spark._jvm.org.apache.spark.sql.internal, "SQLConf$").__getattr__("MODULE$")
    entries = sqlconf.getConfigEntries().toArray()
    keys = sorted(str(e.key())[len(PREFIX) :] for e in entries if str(e.key()).startswith(PREFIX))
    assert keys, "SQLConf registers no single-pass resolver key"
    assert [k for k in keys if k not in CLASSIFIED] == []


_ENV_SCRIPT = """
import json, sys
import colsem
from pyspark.sql import SparkSession
spark = colsem.configure(
    SparkSession.builder.master("local[1]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.warehouse.dir", sys.argv[1])
).getOrCreate()
spark.sql("CREATE TABLE ev (id INT, name STRING, _row_id BIGINT) USING parquet "
          "TBLPROPERTIES ('colsem.hidden_columns' = '_row_id')")
spark.sql("INSERT INTO ev VALUES (1, 'a', 10)")
spark.conf.set("spark.colsem.star.exclude", "TAGGED")
df = spark.sql("SELECT * FROM ev")
lateral = spark.sql("SELECT 10 AS ten, sum(id * ten) AS total FROM ev").collect()
print(json.dumps({
    "columns": df.columns,
    "rows": [list(r) for r in df.collect()],
    "lateral": [list(r) for r in lateral],
    "status": colsem.status(spark),
}))
"""


def test_tentative_from_the_environment(tmp_path: Path):
    env = {**os.environ, "SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY": "true"}
    out = subprocess.run(
        [sys.executable, "-c", _ENV_SCRIPT, str(tmp_path / "warehouse")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["columns"] == ["id", "name"]
    assert result["rows"] == [[1, "a"]]
    assert result["lateral"] == [[10, 10]]
    # The platform's choice: colsem sets the key off in its sessions, and status says why.
    status = result["status"]
    assert status["single_pass_resolver"] == "off"
    assert status["single_pass_resolver.trigger"] == ""
    assert status["single_pass_resolver.environment"] == (
        "SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY=true"
    )
    assert status[PREFIX + "enabledTentatively"] == "false"
