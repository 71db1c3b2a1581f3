"""A short seeded run of the differential fuzzer (fuzz/, `make fuzz` runs the long one): colsem
with default settings against vanilla Spark in its own JVM, lateral aliases against their
inlined form and DuckDB, and the star strategies. Zero differences expected."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT))

from fuzz.facts import has_lateral, out_of_scope_reads, shapes
from fuzz.generator import Generator
from fuzz.render import render
from fuzz.runner import main
from fuzz.tree import (
    Agg,
    Bin,
    Col,
    Core,
    GroupAlias,
    GroupingSets,
    GroupOrdinal,
    I,
    Item,
    LatRef,
    Lit,
    Query,
    ScalarSub,
    TableRef,
)

# Line-independent (CI runs it on the default line only). The generator's and oracles' units; the
# seeded runs are long.
pytestmark = pytest.mark.once


def test_generator_is_seeded_and_inlines_lateral_aliases():
    first = [render(Generator(5 * 1000003 + i).query()) for i in range(50)]
    again = [render(Generator(5 * 1000003 + i).query()) for i in range(50)]
    assert first == again
    lateral = [Generator(5 * 1000003 + i).query() for i in range(200)]
    lateral = [q for q in lateral if has_lateral(q)]
    assert len(lateral) >= 20
    for q in lateral:
        assert render(q, inline=True) != render(q)


def test_generator_makes_every_lateral_alias_shape():
    found = set()
    for i in range(1500):
        q = Generator(5 * 1000003 + i).query()
        if has_lateral(q):
            found.update(shapes(q))
    assert {
        "GROUP BY alias",
        "GROUP BY ordinal",
        "GROUP BY ALL",
        "ROLLUP",
        "CUBE",
        "GROUPING SETS",
        "grouping() over an alias",
        "window in a grouped query over an alias",
        "window over an alias",
        "alias inside an aggregate",
        "alias in WHERE",
        "alias in a correlated scalar subquery",
        "alias in a correlated EXISTS",
        "alias in a subquery of an aggregate list",
    } <= found, found


def alias_reading_subquery(agg: Agg, alias: str) -> Query:
    """`(SELECT agg FROM fb AS t2 WHERE t2.k < alias)`, the alias read as a select-list alias."""
    return Query(
        [],
        Core(
            [Item(agg, None)],
            TableRef("fb", "t2"),
            [],
            Bin("<", Col("t2", "k", I, "k", "t2"), LatRef(alias, alias, I, "SUBQUERY")),
            None,
            None,
        ),
    )


def assert_forms(q: Query, written: str, inlined: str, found: list[str]) -> None:
    """The query as written, its inlined form (the oracle's reference) and its shapes."""
    assert render(q) == written
    assert render(q, inline=True) == inlined
    assert shapes(q) == found


def test_inlined_form_of_the_new_shapes():
    k = Col(None, "k", I, "k", "t1")
    # SELECT k + 1 AS x, (SELECT max(t2.k) FROM fb AS t2 WHERE t2.k < x) FROM fa AS t1 WHERE x > 2
    sub = alias_reading_subquery(Agg("max", Col("t2", "k", I, "k", "t2")), "x")
    q = Query(
        [],
        Core(
            [Item(Bin("+", k, Lit("1", I)), "x"), Item(ScalarSub(sub), None)],
            TableRef("fa", "t1"),
            [],
            Bin(">", LatRef("x", "x", I, "WHERE"), Lit("2", I)),
            None,
            None,
        ),
    )
    # Inlined, inside the subquery the alias is an outer reference: its columns qualified, so
    # fb.k cannot capture them; in WHERE it is the item's expression as written.
    assert_forms(
        q,
        "SELECT (k + 1) AS x, (SELECT max(t2.k) FROM fb AS t2 WHERE (t2.k < x)) "
        "FROM fa AS t1 WHERE (x > 2)",
        "SELECT (k + 1) AS x, (SELECT max(t2.k) FROM fb AS t2 WHERE "
        "(t2.k < ((t1.k + 1)))) FROM fa AS t1 WHERE (((k + 1)) > 2)",
        ["alias in WHERE", "alias in a correlated scalar subquery"],
    )
    # ROLLUP over aliases: inlined, the aliases stay names (vanilla resolves them to the items).
    g = Query(
        [],
        Core(
            [
                Item(Lit("7", I), "a"),
                Item(Bin("+", LatRef("a", "a", I), k), "b"),
                Item(Agg("count", None), "c"),
            ],
            TableRef("fa", "t1"),
            [],
            None,
            [GroupingSets("ROLLUP", [[GroupAlias("a"), GroupAlias("b")]])],
            None,
        ),
    )
    assert render(g).endswith("GROUP BY ROLLUP(a, b)")
    assert render(g, inline=True) == (
        "SELECT 7 AS a, ((7) + k) AS b, count(*) AS c FROM fa AS t1 GROUP BY ROLLUP(a, b)"
    )
    # Spark 3.5's reference writes the grouped aliases out inside ROLLUP, except an integer
    # literal's (which would read as an ordinal).
    assert render(g, inline=True, sets_written_out=True) == (
        "SELECT 7 AS a, ((7) + k) AS b, count(*) AS c FROM fa AS t1 GROUP BY ROLLUP(a, (((7) + k)))"
    )
    # A subquery of an aggregate list reading its aliases: vanilla has no inlined form (an
    # aggregate inlined into a subquery's WHERE is INVALID_WHERE_CONDITION), so the reference is
    # the derived-table form, the list without the subquery below, every item read by name above.
    sub = alias_reading_subquery(Agg("count", None), "m")
    a = Query(
        [],
        Core(
            [Item(k, "g"), Item(Agg("max", k), "m"), Item(ScalarSub(sub), "c")],
            TableRef("fa", "t1"),
            [],
            None,
            [GroupOrdinal(1)],
            None,
        ),
        [(1, False)],
    )
    assert_forms(
        a,
        "SELECT k AS g, max(k) AS m, (SELECT count(*) FROM fb AS t2 WHERE (t2.k < m)) AS c "
        "FROM fa AS t1 GROUP BY 1 ORDER BY 1",
        "SELECT colsem_groups.`g` AS g, colsem_groups.`m` AS m, (SELECT count(*) FROM fb AS t2 "
        "WHERE (t2.k < colsem_groups.`m`)) AS c FROM (SELECT k AS g, max(k) AS m FROM fa AS t1 "
        "GROUP BY 1) AS colsem_groups ORDER BY 1",
        ["GROUP BY ordinal", "alias in a subquery of an aggregate list"],
    )


def test_aliases_read_outside_the_list_are_out_of_scope_unless_the_setting_names_the_scope():
    k = Col(None, "k", I, "k", "t1")
    sub = alias_reading_subquery(Agg("max", Col("t2", "k", I, "k", "t2")), "x")
    q = Query(
        [],
        Core(
            [Item(Bin("+", k, Lit("1", I)), "x"), Item(ScalarSub(sub), None)],
            TableRef("fa", "t1"),
            [],
            Bin(">", LatRef("x", "x", I, "WHERE"), Lit("2", I)),
            None,
            None,
        ),
    )
    assert out_of_scope_reads(q, set()) == ["SUBQUERY", "WHERE"]
    assert out_of_scope_reads(q, {"WHERE"}) == ["SUBQUERY"]
    assert out_of_scope_reads(q, {"SUBQUERY", "WHERE"}) == []
    # The generator marks where it reads an alias: seed 5 reads some in WHERE and in subqueries.
    found = set()
    for i in range(300):
        found.update(out_of_scope_reads(Generator(5 * 1000003 + i).query(), set()))
    assert found == {"SUBQUERY", "WHERE"}


@pytest.mark.long
@pytest.mark.parametrize("scope_args", [[""], ["WHERE,SUBQUERY", "each"]], ids=["default", "each"])
def test_short_seeded_run_has_no_differences(tmp_path: Path, scope_args: list[str]):
    pytest.importorskip("duckdb")
    # Bounded by count (the time bound is only a guard): about 30 s on an idle machine, a minute
    # with every value of the setting.
    code = main(
        [
            "--seed",
            "20261122",
            "--count",
            "60",
            "--seconds",
            "600",
            "--batch",
            "15",
            "--report-dir",
            str(tmp_path),
            "--workdir",
            str(tmp_path / "work"),
            "--no-shrink",
        ]
        + [arg for value in scope_args for arg in ("--lateral-scopes", value)]
    )
    report = json.loads((tmp_path / "latest.json").read_text())
    assert report["queries"] == 60, report
    assert report["all_differences"] == [] and code == 0
    settings = [""] if scope_args == [""] else ["WHERE,SUBQUERY", "", "WHERE", "SUBQUERY"]
    assert report["lateral_scope_settings"] == settings
    assert report["lateral_scopes"] == settings[0]
    # The first value gets every oracle; each further one the vanilla and inline oracles, named
    # after it, over every query.
    scoped = [f"{o}[{v or 'default'}]" for v in settings[1:] for o in ("vanilla", "inline")]
    assert list(report["oracles"]) == ["vanilla", "inline", "duckdb", "dialects", "star"] + scoped
    for name in ["vanilla"] + [o for o in scoped if o.startswith("vanilla")]:
        assert report["oracles"][name]["checked"] == report["queries"]
        assert report["oracles"][name].get("same_rows", 0) > report["queries"] // 2
    assert report["oracles"]["inline"]["checked"] > 0
    # By default the queries reading an alias in WHERE or a subquery are refused as vanilla
    # refuses them; with both scopes on, none is out of scope; each scope alone lets some in.
    reads = report["out_of_scope_by_setting"]
    assert reads.get("WHERE,SUBQUERY", 0) == 0 and reads["default"] > 0
    assert report["out_of_scope_queries"] == reads[settings[0] or "default"]
    if len(settings) > 1:
        assert reads["default"] >= max(reads["WHERE"], reads["SUBQUERY"])
        assert (
            report["oracles"]["vanilla[default]"].get("out_of_scope_refused", 0)
            + report["oracles"]["vanilla[default]"].get("same_error", 0)
            >= reads["default"]
        )
        # Both scopes on answer the lateral aliases the default refuses.
        assert (
            report["oracles"]["inline"]["checked"] > report["oracles"]["inline[default]"]["checked"]
        )
    text = (tmp_path / "latest.md").read_text()
    assert text.startswith("# colsem differential fuzzer")
    assert "| shape | " + " | ".join(v or "default" for v in settings) + " |" in text


def test_shrinking_keeps_the_failure_and_removes_the_rest():
    from fuzz.shrink import shrink
    from fuzz.tree import Item, LatRef, walk

    def fails(q) -> bool:  # a stand-in oracle: "a lateral alias inside a CASE fails"
        from fuzz.tree import Case

        return any(
            isinstance(n, Case) and any(isinstance(m, LatRef) for m in walk(n)) for n in walk(q)
        )

    queries = [Generator(11 * 1000003 + i).query() for i in range(300)]
    failing = [q for q in queries if fails(q)]
    assert failing
    for q in failing[:5]:
        small = shrink(q, fails, max_checks=400, max_seconds=20)
        assert fails(small)
        assert len(render(small)) < len(render(q))
        # Nothing left that can go: one or two items (the alias and its user), no clauses.
        body = small.body
        assert len([i for i in body.items if isinstance(i, Item)]) <= 2, render(small)
        assert body.where is None and body.having is None and not body.joins, render(small)


@pytest.mark.long
def test_a_reference_failure_is_checked_again_on_a_fresh_jvm(tmp_path: Path):
    """Query 7535 of seed 1 (as the generator made it then): a vanilla JVM 25,000 stages old failed
    it with a NullPointerException in JoinedRow; a fresh vanilla JVM answers what colsem answered,
    and that answer is compared. A query with the same answer stands in for it."""
    import collections

    from fuzz.cases import ORACLES
    from fuzz.runner import Fuzzer, parse_args
    from fuzz.tree import DT, Cast, Func

    fuzzer = Fuzzer(parse_args(["--workdir", str(tmp_path)]))
    q = Query(
        [],
        Core(
            [
                Item(Cast(Lit("-18", I), "BIGINT"), "s"),
                Item(Func("year", [Lit("DATE '2024-02-29'", DT)]), "w"),
            ],
            TableRef("fc", "t1"),
            [],
            Bin("=", Col("t1", "id", I, "id", "t1"), Lit("1", I)),
            None,
            None,
        ),
    )
    case = fuzzer.make_case(7535, q)
    colsem_answer = {
        "schema": [["s", "bigint", False, "{}"], ["w", "int", False, "{}"]],
        "rows": [["-18", "2024"]],
        "row_count": 1,
    }
    stale = {
        "error": {
            "class": "org.apache.spark.SparkException",
            "state": None,
            "message": "Job aborted due to stage failure: java.lang.NullPointerException",
        }
    }
    stats = {o: collections.Counter() for o in ORACLES}
    checked = fuzzer.checks.recheck_reference(case, {"c": colsem_answer, "v": stale}, stats)
    assert (checked["v"]["schema"], checked["v"]["rows"]) == (
        colsem_answer["schema"],
        colsem_answer["rows"],
    )
    assert stats["vanilla"] == collections.Counter(reference_rechecked=1, reference_recovered=1)
    assert fuzzer.evaluate(case, {"c": colsem_answer, "v": stale}, count=False) == []
    # colsem failing as well is compared as it is: error classes, no JVM started.
    both = {"c": {"error": {"class": "SparkException", "state": None, "message": "x"}}, "v": stale}
    assert fuzzer.checks.recheck_reference(case, both, stats) is both
    assert stats["vanilla"]["reference_rechecked"] == 1


def test_grouping_sets_over_a_using_join_column_is_spark_s_own_refusal():
    """Seed 24's query 607, shrunk: colsem answers [(1, 1.0), (NULL, 1.0)]; vanilla Spark refuses
    its inlined form, and the form without any alias, since CUBE reads the column USING hides on
    the right side. The inline oracle counts that apart, and nothing else of its kind."""
    from fuzz.oracles import refused_for_sets_over_using
    from fuzz.tree import Join, SubRef

    def query(group: list) -> Query:
        left = Query([], Core([Item(Lit("1", I), "k")], TableRef("fc", "t4"), [], None, None, None))
        right_k = Col("t7", "k", I, "K", "t7")
        return Query(
            [],
            Core(
                [Item(right_k, "tot"), Item(Agg("avg", LatRef("tot", "tot", I)), "col2")],
                SubRef(left, "t6"),
                [Join("JOIN", TableRef("fb", "t7"), None, ["k"])],
                None,
                group,
                None,
            ),
        )

    cube = query([GroupingSets("CUBE", [[GroupAlias("tot")]])])
    assert render(cube) == (
        "SELECT t7.K AS tot, avg(tot) AS col2 FROM (SELECT 1 AS k FROM fc AS t4) AS t6 "
        "JOIN fb AS t7 USING (k) GROUP BY CUBE(tot)"
    )
    refused = {"error": {"class": "MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION"}}
    assert refused_for_sets_over_using(cube, refused)
    assert not refused_for_sets_over_using(cube, {"error": {"class": "MISSING_AGGREGATION"}})
    assert not refused_for_sets_over_using(cube, {"schema": [], "rows": []})
    assert not refused_for_sets_over_using(query([GroupAlias("tot")]), refused)


def test_the_dialect_oracle_reads_sqlite_names_against_the_written_items():
    """Under mysql and sqlite an item reading a lateral alias was named by the whole statement;
    the dialects oracle now checks each sqlite name against the item's rendered text."""
    from fuzz.facts import sqlite_names
    from fuzz.oracles import names_as_written
    from fuzz.tree import StarItem

    q = Query(
        [],
        Core(
            [
                Item(Col("t1", "id", I, "ID", "t1"), None),
                Item(Col("t1", "id", I, "id", "t1"), "a"),
                Item(Bin("+", LatRef("a", "a", I), Lit("1", I)), None),
                Item(LatRef("a", "A", I), None),
            ],
            TableRef("fc", "t1"),
            [],
            None,
            None,
            None,
        ),
    )
    sql = render(q)
    assert sql == "SELECT t1.ID, t1.id AS a, (a + 1), A FROM fc AS t1"
    assert sqlite_names(q) == [None, "a", "(a + 1)", None]

    def answer(*names: str) -> dict:
        return {"schema": [[n, "int", False, "{}"] for n in names]}

    assert names_as_written(q, answer("id", "a", "(a + 1)", "a"))
    assert names_as_written(q, answer("ID", "a", "(a + 1)", "A"))
    assert not names_as_written(q, answer("id", "a", sql, "a"))
    assert not names_as_written(q, answer("id", "a", "(a + 1)"))
    q.body.items.append(StarItem(None, []))
    assert sqlite_names(q) is None and names_as_written(q, answer("id", "a", sql, "a", "id"))
