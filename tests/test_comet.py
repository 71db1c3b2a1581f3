"""colsem beside Apache DataFusion Comet (`make formats`, on the line Comet publishes for): Comet's
plugin adds its own extension and physical rules only, so TPC-DS queries over generated data give
the rows of Comet alone, still run by Comet's operators, with colsem's strictest settings on
(spark.colsem.invariants=error: no false alarm from Comet's plan rewrites) and a TAGGED table's
system column still hidden from `*`; and colsem's invariant checks catch the broken rules of
test_invariants.py with Comet in the session, whether colsem is listed before Comet or after it.
Comet's jar comes from Maven Central (formats.comet.jar)."""

from __future__ import annotations

import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT
from docs_sections import run_section_example
from golden import running_line, version_property
from test_invariants import CASES, EXPECTED, compile_broken_rules, message, run_cases
from tpcds_sides import run_side, write_data

sys.path.insert(0, str(ROOT))
from peer import corpus as maven
from peer import tpcds

FORMATS_LINE = version_property("formats.line")
COMET = version_property("formats.comet.jar")
STRICT = {"spark.colsem.invariants": "error", "spark.colsem.star.exclude": "TAGGED"}

pytestmark = [
    pytest.mark.xdist_group("comet"),
    pytest.mark.formats,
    pytest.mark.skipif(
        running_line() != FORMATS_LINE,
        reason=f"Comet publishes for Spark {FORMATS_LINE}: `make formats` runs these tests",
    ),
]


@pytest.fixture(scope="module")
def corpus() -> tpcds.Tpcds:
    return tpcds.corpus(running_line())


@pytest.fixture(scope="module")
def comet_conf() -> dict[str, str]:
    """How Comet's documentation loads it: its jar on both class paths, its plugin, off-heap
    memory, and its shuffle (Comet 1.2 disables itself without its shuffle manager)."""
    jar = maven.maven_jar(COMET)
    assert jar is not None, f"{COMET} not found on Maven Central"
    return {
        "spark.jars": str(jar),
        "spark.driver.extraClassPath": str(jar),
        "spark.executor.extraClassPath": str(jar),
        "spark.plugins": "org.apache.spark.CometPlugin",
        "spark.memory.offHeap.enabled": "true",
        "spark.memory.offHeap.size": "1g",
        "spark.shuffle.manager": "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager",
        "spark.comet.exec.shuffle.enabled": "true",
    }


def executed(corpus: tpcds.Tpcds):  # type: ignore[no-untyped-def]
    return corpus.queries()[::4]


@pytest.fixture(scope="module")
def sides(spark, corpus, comet_conf, workdir: Path) -> dict[str, dict]:
    data = write_data(spark, corpus, workdir / "tpcds_data")
    queries = executed(corpus)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            "comet": pool.submit(
                run_side,
                "comet",
                corpus,
                data,
                workdir,
                queries,
                colsem=False,
                analyze=False,
                conf=comet_conf,
                long_running=True,
            ),
            "comet+colsem": pool.submit(
                run_side,
                "comet_colsem",
                corpus,
                data,
                workdir,
                queries,
                colsem=True,
                analyze=False,
                conf=comet_conf,
                session_conf=STRICT,
                long_running=True,
            ),
        }
        return {name: future.result() for name, future in futures.items()}


def comet_operators(plan: str) -> list:
    return sorted(set(re.findall(r"\b(Comet[A-Za-z]+)", plan)))


def planned(plan: str) -> str:
    """The plan as planned: adaptive execution's final plan depends on which stages finish first
    (an empty stage turns a join into CometEmptyRelation in one run and not in the next)."""
    return plan.split("== Initial Plan ==", 1)[-1]


def test_both_sides_run_comet_and_only_one_colsem(sides):
    assert sides["comet"]["colsem_loaded"] is False
    assert sides["comet+colsem"]["colsem_loaded"] is True


def test_tpcds_rows_and_comet_operators_are_comet_alone_s(sides, corpus):
    queries = [q.stem for q in executed(corpus)]
    alone, beside = sides["comet"]["runs"], sides["comet+colsem"]["runs"]
    answers = {
        side: {q: (runs[q]["columns"], runs[q].get("rows"), runs[q].get("error")) for q in queries}
        for side, runs in (("alone", alone), ("beside", beside))
    }
    differences = [q for q in queries if answers["alone"][q] != answers["beside"][q]]
    assert differences == []
    assert {q: comet_operators(planned(beside[q]["executed_plan"])) for q in queries} == {
        q: comet_operators(planned(alone[q]["executed_plan"])) for q in queries
    }
    run_by_comet = [q for q in queries if comet_operators(beside[q]["executed_plan"])]
    assert len(run_by_comet) == len(queries), sorted(set(queries) - set(run_by_comet))
    assert sum(bool(alone[q].get("rows")) for q in queries) >= len(queries) // 3


def test_tagged_column_hidden_from_star_under_comet(sides):
    beside, alone = sides["comet+colsem"]["runs"], sides["comet"]["runs"]
    star = beside["events: SELECT *"]
    assert (star["columns"], star["rows"]) == (["id", "msg"], ["1\ta", "2\tb"])
    assert comet_operators(star["executed_plan"]), star["executed_plan"]
    assert alone["events: SELECT *"]["columns"] == ["id", "msg", "_ts"]
    named = beside["events: SELECT id, _ts"]
    assert (named["columns"], named["rows"]) == (["id", "_ts"], ["1\t10", "2\t20"])


def test_getting_started_example_runs_as_written(workdir: Path):
    """docs/getting-started.md's Comet example, run as a user would (in an empty folder, where its
    Spark warehouse goes), once the shell block has put Comet's jar into ~/.m2."""
    maven.maven_jar(COMET)
    doc = ROOT / "docs" / "getting-started.md"
    assert f"dependency:get -Dartifact={COMET}\n" in doc.read_text()
    proc = run_section_example(
        doc, "## Beside Apache DataFusion Comet", workdir / "getting_started_comet"
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    first, *plan = proc.stdout.splitlines()
    assert first == "[Row(id=2, msg='b', x=20, y=21)]"
    assert plan[0] == "== Physical Plan ==", plan
    assert {"CometFilter", "CometProject"} <= set(comet_operators("\n".join(plan))), plan


# colsem's place among extensions (docs/invariants.md, "Beside other extensions"). colsem.configure
# appends colsem to spark.sql.extensions, and Comet's plugin appends Comet's extension when the
# SparkContext starts unless the list names it already: so colsem comes before Comet by default,
# and after it when the list names Comet's extension first.
COMET_EXTENSION = "org.apache.comet.CometSparkSessionExtensions"
# Comet 1.2's physical rules: one query-stage preparation rule and one columnar rule.
COMET_STAGE_PREP_RULES = ["org.apache.comet.rules.CometRule"]
COMET_COLUMNAR_RULES = ["org.apache.comet.CometSparkSessionExtensions$CometColumnar"]
PLACEMENTS = {
    "colsem before Comet": {},
    "colsem after Comet": {
        "spark.sql.extensions": f"com.example.broken.BrokenRules,{COMET_EXTENSION}"
    },
}


@pytest.fixture(scope="module")
def broken_jar(workdir: Path) -> Path:
    return compile_broken_rules(workdir)


@pytest.fixture(scope="module", params=sorted(PLACEMENTS))
def placed(request, broken_jar, comet_conf, workdir: Path, log4j_file: Path) -> tuple[str, dict]:
    placement = request.param
    settings = {
        **comet_conf,
        "spark.jars": f"{broken_jar},{comet_conf['spark.jars']}",
        **PLACEMENTS[placement],
    }
    name = "comet_" + placement.replace(" ", "_")
    return placement, run_cases(broken_jar, workdir, log4j_file, settings, name)


def test_each_list_of_physical_rules_follows_spark_sql_extensions(placed):
    placement, outcomes = placed
    broken_stage, broken_columnar = (
        ["com.example.broken.DropPhysicalColumn"],
        ["com.example.broken.ReorderPhysicalProjection"],
    )
    colsem_stage = ["io.colsem.invariants.CheckPreparedSchemaAdaptive"]
    colsem_columnar = [
        "io.colsem.invariants.ShipJarToExecutors",
        "io.colsem.invariants.InsertCheckedOutput",
        "io.colsem.invariants.CheckPreparedSchemaColumnar",
    ]
    comet_stage, comet_columnar = COMET_STAGE_PREP_RULES, COMET_COLUMNAR_RULES
    if placement == "colsem before Comet":
        assert outcomes["stage_prep_rules"] == broken_stage + colsem_stage + comet_stage
        assert outcomes["columnar_rules"] == broken_columnar + colsem_columnar + comet_columnar
    else:
        assert outcomes["stage_prep_rules"] == broken_stage + comet_stage + colsem_stage
        assert outcomes["columnar_rules"] == broken_columnar + comet_columnar + colsem_columnar


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invariant_checks_catch_broken_rules_beside_comet(placed, name):
    """The error test_invariants.py expects, exactly, in either placement."""
    _, outcomes = placed
    _, expected = EXPECTED[name]
    for action in next(c[3] for c in CASES if c[0] == name):
        assert outcomes["results"][f"{name}/error/{action}"] == expected, action
        logged = outcomes["warnings"][f"{name}/warn/{action}"]
        assert len(logged) == 1 and message(expected) in logged[0], (action, logged)


def test_healthy_query_runs_by_comet_and_passes_every_check(placed):
    _, outcomes = placed
    for mode in ("off", "warn", "error"):
        for action in next(c[3] for c in CASES if c[0] == "healthy"):
            key = f"healthy/{mode}/{action}"
            assert outcomes["results"][key] == {
                "schema": "struct<s1:int,u:string>",
                "rows": [[1, "A"], [2, "B"]],
            }, key
            assert outcomes["warnings"][key] == []
            assert {"CometNativeScan", "CometFilter", "CometProject"} <= set(
                comet_operators(outcomes["plans"][key])
            ), outcomes["plans"][key]
            assert ("CheckedOutput" in outcomes["plans"][key]) == (mode != "off"), key
