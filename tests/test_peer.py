"""`make peer` (peer/): Spark's own SQL test corpus under vanilla Spark and colsem. Fast tests of
the statement splitter and of the classification of two outcomes; the CI slice (`corpus` marker:
about 6 minutes) with default settings, which must show no difference."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT))

from peer import compare, corpus

# Line-independent (CI runs it on the default line only). The corpus harness's units; its corpus
# slice is per line and long.
pytestmark = pytest.mark.once


# ---------------------------------------------------------------- splitting (SQLQueryTestSuite's rules)
def test_split_on_semicolons_anywhere_not_escaped():
    text = "SELECT 1; SELECT 2;\nSELECT 'a\\;b';\n\nSELECT\n  3\n;"
    assert corpus.split(text) == ["SELECT 1", "SELECT 2", "SELECT 'a\\;b'", "SELECT\n  3"]


def test_comment_lines_dropped_inline_comments_kept():
    text = "-- header\nSELECT 1 -- one\n  -- indented comment\n, 2;\n--SET a=b\nSELECT 3;"
    assert corpus.split(text) == ["SELECT 1 -- one\n, 2", "SELECT 3"]


def test_query_delimiters_keep_semicolons_inside():
    text = (
        "SELECT 0;\n--QUERY-DELIMITER-START\n/* a; b */\nSELECT 1;\n--QUERY-DELIMITER-END\n"
        "SELECT 2;\nSELECT 3"
    )
    assert corpus.split(text) == ["SELECT 0", "/* a; b */\nSELECT 1", "SELECT 2", "SELECT 3"]


def test_import_puts_the_other_files_code_first():
    files = {"other.sql": "-- other\nCREATE TABLE t(a INT);\nSELECT 9;"}
    text = "--IMPORT other.sql\nSELECT * FROM t;"
    assert corpus.split(text, files.__getitem__) == [
        "CREATE TABLE t(a INT)",
        "SELECT 9",
        "SELECT * FROM t",
    ]


def test_set_and_first_config_set_of_each_dimension():
    text = (
        "--SET spark.sql.a=1, spark.sql.b = x\n--CONFIG_DIM1 spark.c=1,spark.d=2\n"
        "--CONFIG_DIM1 spark.c=3\n--CONFIG_DIM2 spark.e=true\n--CONFIG_DIM2 spark.e=false\nSELECT 1;"
    )
    conf, dims = corpus.settings(text)
    assert conf == {
        "spark.sql.a": "1",
        "spark.sql.b": "x",
        "spark.c": "1",
        "spark.d": "2",
        "spark.e": "true",
    }
    assert dims == ["1", "2"]


def test_directory_modes():
    assert corpus.mode_conf("postgreSQL/int4.sql", True) == (
        {"spark.sql.ansi.enabled": "true", "spark.sql.legacy.interval.enabled": "true"},
        True,
    )
    assert corpus.mode_conf("nonansi/math.sql", True)[0] == {"spark.sql.ansi.enabled": "false"}
    assert corpus.mode_conf("timestampNTZ/timestamp.sql", True)[0] == {
        "spark.sql.timestampType": "TIMESTAMP_NTZ"
    }
    assert corpus.mode_conf("group-by.sql", True)[0] == {"spark.sql.ansi.enabled": "true"}
    assert corpus.mode_conf("group-by.sql", False)[0] == {}


def test_selection_globs():
    names = [
        "group-by.sql",
        "group-by-all.sql",
        "subquery/in-subquery/in-basic.sql",
        "window.sql",
        "udf/udf-window.sql",
    ]
    assert corpus.select(names, ["group-by*", "subquery/**"]) == [
        "group-by.sql",
        "group-by-all.sql",
        "subquery/in-subquery/in-basic.sql",
    ]
    assert corpus.select(names, ["*window*"]) == ["window.sql", "udf/udf-window.sql"]


def test_corpus_candidates_walk_down_releases():
    props = {
        "lines": "3.5,4.0,4.1",
        "line.4.1.spark.version": "4.1.2",
        "line.4.0.spark.version": "4.0.1",
        "line.3.5.spark.version": "3.5.9",
    }
    assert corpus.candidates("4.1", props) == ["4.1.2", "4.1.1", "4.1.0", "4.0.1", "4.0.0"]
    assert corpus.candidates("4.1", {**props, "line.4.1.corpus.version": "4.0.1"}) == ["4.0.1"]


# ---------------------------------------------------------------- classification
def answer(names=("a",), rows_hash="h1", types=("int",)):
    return {
        "schema": [[n, t, True, "{}", f'"{t}"'] for n, t in zip(names, types)],
        "row_count": 1,
        "rows_hash": rows_hash,
        "rows": ["1"],
        "ordered": False,
    }


def error(cls, state="42703", message=""):
    return {"error": {"class": cls, "state": state, "message": message}}


def test_same_and_plain_differences():
    assert compare.classify("default", "q", answer(), answer()) == (compare.SAME_ROWS, None)
    assert compare.classify("default", "q", error("X"), error("X")) == (compare.SAME_ERROR, None)
    assert compare.classify("default", "q", error("X"), error("X", "42000")) == (
        compare.DIFFERENCE,
        "error_class",
    )
    assert compare.classify("default", "q", answer(), answer(rows_hash="h2")) == (
        compare.DIFFERENCE,
        "rows",
    )
    assert compare.classify("default", "q", answer(), answer(types=("bigint",))) == (
        compare.DIFFERENCE,
        "schema",
    )
    assert compare.classify("default", "q", answer(), error("X")) == (
        compare.DIFFERENCE,
        "colsem_only_error",
    )
    known = compare.classify(
        "default",
        "q",
        error("AMBIGUOUS_LATERAL_COLUMN_ALIAS", "42702"),
        error("COLSEM_AMBIGUOUS_LATERAL_ALIAS", "42702"),
    )
    assert known == (compare.DIFFERENCE, "error_class")


def test_lateral_alias_acceptance_is_allowed_only_for_its_refusals():
    for cls in (
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_GROUP_BY",
        "LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC",
    ):
        assert compare.classify("default", "q", error(cls), answer()) == (compare.LATERAL, None)
    assert compare.classify("default", "q", error("DIVIDE_BY_ZERO"), answer()) == (
        compare.DIFFERENCE,
        "vanilla_only_error",
    )
    broken = "[INTERNAL_ERROR] Resolved plan should not contain any LateralColumnAliasReference."
    assert compare.classify("default", "q", error("INTERNAL_ERROR", "XX000", broken), answer()) == (
        compare.LATERAL,
        None,
    )
    assert compare.classify(
        "default", "q", error("INTERNAL_ERROR", "XX000", "other"), answer()
    ) == (compare.DIFFERENCE, "vanilla_only_error")


def test_dialect_differences_only_under_dialects():
    v, c = answer(names=("(a + 1)",)), answer(names=("?column?",))
    assert compare.classify("postgres", "q", v, c) == (compare.DIALECT_NAMES, None)
    assert compare.classify("default", "q", v, c) == (compare.DIFFERENCE, "schema")
    # names and types differ: not only names
    assert (
        compare.classify("postgres", "q", v, answer(names=("?column?",), types=("bigint",)))[0]
        == compare.DIFFERENCE
    )
    refused = error(
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        message="[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter "
        "with name `(a + 1)` cannot be resolved. Did you mean ...",
    )
    assert compare.classify("mysql", "SELECT `(a + 1)` FROM v", answer(), refused) == (
        compare.DIALECT_REFERENCE,
        None,
    )
    assert (
        compare.classify("star", "SELECT `(a + 1)` FROM v", answer(), refused)[0]
        == compare.DIFFERENCE
    )
    # vanilla resolved the generated name and failed running the query: the statement analyzed
    grouped = "SELECT (SELECT a FROM t) + 1 GROUP BY `(a + 1)`"
    runtime = error(
        "SCALAR_SUBQUERY_TOO_MANY_ROWS", "21000", "org.apache.spark.SparkException: [SCALAR_..."
    )
    assert compare.classify("postgres", grouped, runtime, refused) == (
        compare.DIALECT_REFERENCE,
        None,
    )
    analysis = error(
        "UNRESOLVED_ROUTINE",
        "42883",
        "org.apache.spark.sql.AnalysisException: [UNRESOLVED_ROUTINE]",
    )
    assert compare.classify("postgres", grouped, analysis, refused) == (
        compare.DIFFERENCE,
        "error_class",
    )
    # a name the statement defines (a lateral alias colsem fails to resolve) is no generated name
    later = error(
        "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
        message="... with name `col` cannot be resolved. `col` is defined by a later item",
    )
    sql = "SELECT col + 1 as col2, explode(array(1, 2, 3)) as col"
    assert compare.classify("postgres", sql, answer(), later) == (
        compare.DIFFERENCE,
        "colsem_only_error",
    )
    assert (
        compare.classify("postgres", "SELECT `col` + 1 AS x, 1 AS `col`", answer(), later)[0]
        == compare.DIFFERENCE
    )
    # an unaliased string literal is named by its text: `SELECT 'col1' ... ORDER BY col1`
    by_text = error(
        "UNRESOLVED_COLUMN.WITH_SUGGESTION", message="... with name `col1` cannot be resolved."
    )
    literal = "SELECT 'col1' FROM (SELECT 'a' AS col1, 'b' AS col1) ORDER BY col1"
    assert compare.classify("postgres", literal, answer(names=("col1",)), by_text) == (
        compare.DIALECT_REFERENCE,
        None,
    )
    assert (
        compare.classify("postgres", literal, answer(names=("x",)), by_text)[0]
        == compare.DIFFERENCE
    )
    aliased = "SELECT 'col1' AS c FROM v ORDER BY col1"
    assert (
        compare.classify("postgres", aliased, answer(names=("col1",)), by_text)[0]
        == compare.DIFFERENCE
    )
    ambiguous = error(
        "AMBIGUOUS_REFERENCE",
        "42704",
        "org.apache.spark.sql.AnalysisException: "
        "[AMBIGUOUS_REFERENCE] Reference `col1` is ambiguous, could be: [`col1`, `col1`].",
    )
    twice = "SELECT 'col1', 'col1' FROM v2 GROUP BY ALL HAVING col1 > 'banana'"
    assert compare.classify("postgres", twice, ambiguous, by_text) == (
        compare.DIALECT_REFERENCE,
        None,
    )
    assert (
        compare.classify("postgres", "SELECT col1 FROM v", ambiguous, by_text)[0]
        == compare.DIFFERENCE
    )
    # a view's unaliased CAST of a column is the column's name to Spark, a CAST(...) to a text dialect
    cast = error(
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        message="... with name `c1` cannot be resolved. Did you "
        "mean one of the following? [`CAST(c1 AS STRING COLLATE SR_AI)`]. SQLSTATE: 42703",
    )
    assert compare.classify("mysql", "SELECT COUNT(*) FROM v WHERE c1 = 'c'", answer(), cast) == (
        compare.DIALECT_REFERENCE,
        None,
    )
    other = error(
        "UNRESOLVED_COLUMN.WITH_SUGGESTION",
        message="... with name `c1` cannot be resolved. Did you "
        "mean one of the following? [`CAST(c2 AS STRING)`]. SQLSTATE: 42703",
    )
    assert compare.classify("mysql", "SELECT c1 FROM v", answer(), other)[0] == compare.DIFFERENCE


def test_invariant_duplicates_allowed_when_the_statement_names_the_relation():
    msg = (
        "[COLSEM_DUPLICATE_QUALIFIED_FIELD] Schema invariant 2 ... it produces the field "
        "spark_catalog.default.t1.s1 twice, from the left side and the right side."
    )
    sql = "SELECT * FROM t1 JOIN t1 ON true"
    dup = error(compare.DUPLICATE, "42702", msg)
    assert compare.classify("invariants-error", sql, answer(), dup) == (
        compare.INVARIANT_DUPLICATE,
        None,
    )
    assert (
        compare.classify("invariants-error", "SELECT * FROM v", answer(), dup)[0]
        == compare.DIFFERENCE
    )
    assert compare.classify("default", sql, answer(), dup)[0] == compare.DIFFERENCE
    warned = {**answer(), "reports": [msg]}
    assert compare.classify("invariants-warn", sql, answer(), warned) == (
        compare.INVARIANT_DUPLICATE,
        None,
    )
    other = {**answer(), "reports": ["[COLSEM_SCHEMA_INVARIANT_VIOLATED] Schema invariant 3 ..."]}
    assert compare.classify("invariants-warn", sql, answer(), other) == (
        compare.DIFFERENCE,
        "invariant_report",
    )


def test_an_explain_differing_in_names_is_checked_again_under_sparks_names():
    explain = "EXPLAIN EXTENDED SELECT a + 1 FROM t"
    assert compare.plan_text_names("postgres", explain, "rows")
    assert compare.plan_text_names("mysql", "  explain " + explain[8:], "rows")
    assert not compare.plan_text_names("postgres", explain, "schema")
    assert not compare.plan_text_names("default", explain, "rows")
    assert not compare.plan_text_names("postgres", "SELECT 'EXPLAIN'", "rows")
    assert compare.spark_named_rerun("sqlite", explain) == [
        "SET spark.colsem.naming.dialect=spark",
        explain,
        "SET spark.colsem.naming.dialect=sqlite",
    ]
    vanilla = answer(names=("plan",), rows_hash="spark-names")
    assert compare.same_rows(vanilla, answer(names=("plan",), rows_hash="spark-names"))
    assert not compare.same_rows(vanilla, answer(names=("plan",), rows_hash="dialect-names"))
    assert not compare.same_rows(vanilla, error("PARSE_SYNTAX_ERROR"))
    assert not compare.same_rows(vanilla, None)


def metadata(lines, ordered=True):
    return {**answer(names=("col_name", "data_type")), "lines": lines, "ordered": ordered}


def test_a_views_metadata_differing_in_its_dialect_names_only_is_allowed():
    sql = "DESCRIBE EXTENDED v"
    assert compare.metadata_relation("postgres", sql, "rows") == "v"
    assert (
        compare.metadata_relation("sqlite", "SHOW TABLE EXTENDED IN db1 LIKE 'v'", "rows")
        == "db1.v"
    )
    assert compare.metadata_relation("mysql", "show create table `d`.`v 1`", "rows") == "`d`.`v 1`"
    assert compare.metadata_relation("canonical", "DESC TABLE FORMATTED v;", "rows") == "v"
    assert compare.metadata_relation("default", sql, "rows") is None
    assert compare.metadata_relation("postgres", sql, "schema") is None
    assert compare.metadata_relation("postgres", "SHOW TABLE EXTENDED LIKE 'v*'", "rows") is None
    assert compare.metadata_relation("postgres", "DESCRIBE QUERY SELECT 1", "rows") is None
    # DESCRIBE pads a column name to 20 characters: the padding follows the name.
    spark = [
        "1                   \tint                 \t                    ",
        "two                 \tint                 \t                    ",
        "View Query Output Columns\t[`1`, `two`]\t",
    ]
    dialect = [
        "?column?            \tint                 \t                    ",
        "two                 \tint                 \t                    ",
        "View Query Output Columns\t[`?column?`, `two`]\t",
    ]
    names = ["?column?", "two"]
    assert compare.renamed_metadata(metadata(spark), metadata(dialect), names)
    # SHOW TABLE EXTENDED: one row, the names inside a multi-line cell.
    shown = "default\tv\tfalse\tType: VIEW\nView Query Output Columns: [`{0}`]\nSchema: root\n |-- {0}: integer\n"
    one = metadata([shown.format("1")], ordered=False)
    assert compare.renamed_metadata(
        one, metadata([shown.format("?column?")], ordered=False), ["?column?"]
    )
    # Not names only: a type, a second line's other text, a name read two ways, two names read as one.
    assert not compare.renamed_metadata(
        metadata(spark), metadata([dialect[0].replace("int", "bigint", 1)] + dialect[1:]), names
    )
    assert not compare.renamed_metadata(
        metadata(spark), metadata(dialect[:2] + [dialect[2] + "x"]), names
    )
    assert not compare.renamed_metadata(
        metadata(spark),
        metadata(dialect[:2] + ["View Query Output Columns\t[`?column?`, `?column?`]\t"]),
        names,
    )
    assert not compare.renamed_metadata(
        metadata(["a\tint", "b\tint"]), metadata(["x\tint", "x\tint"]), ["x"]
    )
    assert not compare.renamed_metadata(metadata(spark), metadata(spark), names)  # nothing renamed
    assert not compare.renamed_metadata(metadata(spark), metadata(dialect), [])
    assert not compare.renamed_metadata(
        metadata(spark, ordered=False), metadata(dialect, ordered=False), names
    )
    assert not compare.renamed_metadata(
        answer(), answer(rows_hash="h2"), names
    )  # no lines recorded


def test_nondeterministic_needs_a_second_run_that_disagrees():
    first = answer(rows_hash="h1")
    assert compare.nondeterministic(first, answer(rows_hash="h2"))
    assert not compare.nondeterministic(first, answer(rows_hash="h1"))
    assert not compare.nondeterministic(first, {"skipped": "a command"})
    assert not compare.nondeterministic(first, None)


# ---------------------------------------------------------------- the CI slice
@pytest.mark.corpus
@pytest.mark.long
def test_ci_slice_has_no_differences(tmp_path: Path):
    from peer.runner import main

    main(
        [
            "--slice",
            "ci",
            "--settings",
            "default",
            "--out",
            str(tmp_path / "report"),
            "--workdir",
            str(tmp_path / "work"),
        ]
    )
    report = json.loads((tmp_path / "report.json").read_text())
    assert not report["partial"]
    default = report["settings"]["default"]
    listing = "\n".join(
        f"{d['file']} #{d['statement']}: {d['sql']}\n  vanilla: {d['vanilla']}\n"
        f"  colsem: {d['colsem']}"
        for d in default["differences"]
    )
    assert default["differences"] == [], f"{len(default['differences'])} differences:\n{listing}"
