"""Plan drawings in the Scala sources' scaladoc stay true (docs/development.md, "Tests").

A drawing is a scaladoc `{{{ ... }}}` block with tree lines (`+-`, `:-`). The line right after
its closing `}}}` names the golden case that shows it:

    * Golden: <file>.sql: <substring>

where tests/sql/analyzer-results/<file>.sql.out has exactly one `-- !query` case whose query
(whitespace runs read as one space) contains <substring>, and that case has an analyzed plan.
The drawing's resolved side must list its operators (the first CamelCase word of each line, after
the tree characters and a leading `'`) in the same top-down order as that plan: a subsequence of
the plan's operators, so a drawing may leave out levels but never invent or reorder one.

The resolved side: the lines below a line that holds only `=>` or `==>` (a before/after drawing
stacked), else the right column of a side-by-side drawing (text after the last arrow on each line
that has one; on the others, the text from the column where the arrowed lines' right side
starts), else the whole drawing. A drawing no SQL golden can show (a MERGE, which the golden
tables cannot run; a pipeline's graph) says why and names the test that holds it:

    * Golden: none (<why>):
    *   tests/<file>.py::<test function>

(a Golden line may go on, indented, on the lines below it).

Reads the sources and the golden files only: no Spark."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

# Line-independent (CI runs it on the default line only). Source files only: scaladoc drawings
# against the default line's goldens.
pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
SCALA = ROOT / "jvm" / "src"
ANALYZER_RESULTS = ROOT / "tests" / "sql" / "analyzer-results"

TREE_LINE = re.compile(r"(?:^|\s)(?::-|\+-)\s")
ARROW = re.compile(r"={1,2}>")
SCALADOC_PREFIX = re.compile(r"^\s*\*(?: |$)")
GOLDEN = re.compile(r"^\s*\*\s*Golden:\s*(.*?)\s*$")
CONTINUED = re.compile(r"^\s*\*   +\S")  # a Golden line goes on, indented, on the lines below
NAMED_CASE = re.compile(r"^(?P<file>[\w.-]+\.sql):\s+(?P<substring>.+)$")
NO_GOLDEN = re.compile(r"^none \(\S.*\):\s+(?P<file>tests/[\w/.-]+\.py)::(?P<test>\w+)$")
# The first word of a plan line: tree characters, then an operator (`'` marks an unresolved one,
# `!` one whose input is missing).
OPERATOR = re.compile(r"^[\s:|+-]*[!']?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?=$|[\s\[(,])")


@dataclass(frozen=True)
class Drawing:
    path: str  # relative to the repository
    line: int  # of the opening `{{{`, 1-based
    body: tuple[str, ...]  # the lines between `{{{` and `}}}`, scaladoc prefix removed
    golden: str | None  # the text after `Golden:` on the line after `}}}`

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Case:
    query: str
    line: int  # of its `-- !query`, 1-based
    plan: tuple[str, ...] | None  # None: the analysis refused it


def drawings(path: str, text: str) -> list[Drawing]:
    """The plan drawings (blocks with tree lines) of one Scala source."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        if "{{{" not in lines[i]:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and "}}}" not in lines[end]:
            end += 1
        body = tuple(SCALADOC_PREFIX.sub("", line, count=1) for line in lines[i + 1 : end])
        if any(TREE_LINE.search(line) for line in body):
            after = GOLDEN.match(lines[end + 1]) if end + 1 < len(lines) else None
            golden = after.group(1) if after else None
            more = end + 2
            while golden is not None and more < len(lines) and CONTINUED.match(lines[more]):
                golden += " " + lines[more].strip().lstrip("*").strip()
                more += 1
            found.append(Drawing(path, i + 1, body, golden))
        i = end + 1
    return found


def resolved_side(body: tuple[str, ...]) -> list[tuple[int, str]]:
    """(offset in the body, text) of each line of the drawing's resolved side."""
    alone = [n for n, line in enumerate(body) if ARROW.fullmatch(line.strip())]
    if alone:
        return [(n, line) for n, line in enumerate(body) if n > alone[-1]]
    starts = []
    for line in body:
        arrows = list(ARROW.finditer(line))
        if arrows:
            rest = line[arrows[-1].end() :]
            starts.append(arrows[-1].end() + len(rest) - len(rest.lstrip()))
    if not starts:
        return list(enumerate(body))
    column = min(starts)
    side = []
    for n, line in enumerate(body):
        arrows = list(ARROW.finditer(line))
        side.append((n, line[arrows[-1].end() :] if arrows else line[column:]))
    return side


def operator(line: str) -> str | None:
    match = OPERATOR.match(line)
    return match.group(1) if match else None


def cases(text: str) -> list[Case]:
    """The `-- !query` cases of an analyzer-results file."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i] != "-- !query":
            i += 1
            continue
        start = i
        i += 1
        query = []
        while i < len(lines) and not lines[i].startswith("-- !query"):
            query.append(lines[i])
            i += 1
        kind = lines[i] if i < len(lines) else ""
        i += 1
        body = []
        while i < len(lines) and lines[i] != "-- !query":
            body.append(lines[i])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        plan = tuple(body) if kind == "-- !query analysis" else None
        found.append(Case(" ".join(" ".join(query).split()), start + 1, plan))
    return found


def problems(drawing: Drawing, golden_text: Callable[[str], str | None]) -> list[str]:
    """What is wrong with one drawing (nothing: it is true); golden_text(name) reads
    analyzer-results/<name>.out, None when there is no such file."""
    where = drawing.where
    if drawing.golden is None:
        return [
            f"{where}: the drawing has no `* Golden: <file>.sql: <substring>` line right after its "
            "closing }}}"
        ]
    exempt = NO_GOLDEN.match(drawing.golden)
    if exempt:
        test_file = ROOT / exempt.group("file")
        if not test_file.is_file():
            return [f"{where}: Golden: none names {exempt.group('file')}, which does not exist"]
        if f"def {exempt.group('test')}(" not in test_file.read_text():
            return [
                f"{where}: Golden: none names {exempt.group('test')}, which "
                f"{exempt.group('file')} does not define"
            ]
        return []
    named = NAMED_CASE.match(drawing.golden)
    if not named:
        return [
            f"{where}: `Golden: {drawing.golden}` is neither `<file>.sql: <substring>` nor "
            "`none (<why>): tests/<file>.py::<test>`"
        ]
    name, substring = named.group("file"), " ".join(named.group("substring").split())
    text = golden_text(name)
    if text is None:
        return [f"{where}: Golden names {name}, but analyzer-results has no {name}.out"]
    matching = [case for case in cases(text) if substring in case.query]
    if not matching:
        return [f"{where}: no `-- !query` case of {name}.out contains {substring!r}"]
    if len(matching) > 1:
        lines = ", ".join(str(case.line) for case in matching)
        return [
            f"{where}: {len(matching)} cases of {name}.out contain {substring!r} (lines {lines}); "
            "name one"
        ]
    case = matching[0]
    if case.plan is None:
        return [f"{where}: {name}.out:{case.line} has no analyzed plan (its analysis fails)"]
    plan = [op for op in map(operator, case.plan) if op]
    drawn = [(n, op) for n, text_ in resolved_side(drawing.body) if (op := operator(text_))]
    if not drawn:
        return [f"{where}: the drawing's resolved side names no operator"]
    at = 0
    for n, op in drawn:
        try:
            at = plan.index(op, at) + 1
        except ValueError:
            after = f"after {plan[at - 1]} (plan operator {at})" if at else "anywhere"
            return [
                f"{where}: the drawing's {op} (drawing line {drawing.line + 1 + n}) is not in the "
                f"plan of {name}.out:{case.line} {after}; the plan's operators, top down: "
                + " ".join(plan)
            ]
    return []


def golden_file(name: str) -> str | None:
    path = ANALYZER_RESULTS / f"{name}.out"
    return path.read_text() if path.is_file() else None


def all_drawings() -> list[Drawing]:
    return [
        drawing
        for source in sorted(SCALA.rglob("*.scala"))
        for drawing in drawings(str(source.relative_to(ROOT)), source.read_text())
    ]


DRAWINGS = all_drawings()


def test_the_sources_draw_plans() -> None:
    # A scan that found nothing would pass every drawing test below.
    assert len(DRAWINGS) >= 10, [d.where for d in DRAWINGS]


@pytest.mark.parametrize("drawing", DRAWINGS, ids=[d.where for d in DRAWINGS])
def test_drawing_is_true(drawing: Drawing) -> None:
    found = problems(drawing, golden_file)
    assert not found, "\n".join(found)


# The checker on synthetic drawings and golden files.

GOLDEN_TEXT = """-- !query
CREATE TEMPORARY VIEW t AS SELECT 1 AS a
-- !query analysis
CreateViewCommand `t`, SELECT 1 AS a, false, false, LocalTempView, UNSUPPORTED, true
   +- Project [1 AS a#x]
      +- OneRowRelation

-- !query
SELECT a + 1 AS x,
  x * 2 AS y FROM t
-- !query analysis
Project [x#x, (x#x * 2) AS y#x]
+- Project [a#x, (a#x + 1) AS x#x]
   +- SubqueryAlias t
      +- View (`t`, [a#x])
         +- Project [1 AS a#x]
            +- OneRowRelation

-- !query
SELECT a AS x FROM t ORDER BY x
-- !query analysis
Sort [x#x ASC NULLS FIRST], true
+- Project [a#x AS x#x]
   +- SubqueryAlias t
      +- View (`t`, [a#x])
         +- Project [1 AS a#x]
            +- OneRowRelation

-- !query
SELECT nope FROM t
-- !query analysis error
UNRESOLVED_COLUMN.WITH_SUGGESTION (SQLSTATE 42703)
"""


def check(source: str) -> list[str]:
    found = drawings("jvm/src/X.scala", source)
    assert len(found) == 1
    return problems(found[0], lambda name: GOLDEN_TEXT if name == "g.sql" else None)


def doc(*lines: str, golden: str | None = "g.sql: x * 2 AS y") -> str:
    after = [f" * Golden: {golden}"] if golden is not None else [" */"]
    return "\n".join(["/**", " * {{{", *(f" *   {line}" for line in lines), " * }}}", *after])


def test_a_true_drawing_passes() -> None:
    assert check(doc("Project [x, x * 2 AS y]", "+- Project [a, a + 1 AS x]", "   +- t")) == []


def test_a_multi_line_query_is_read_as_one_line() -> None:
    assert (
        check(doc("Project [x, y]", "+- Project [a, x]", golden="g.sql: a + 1 AS x, x * 2")) == []
    )


def test_a_wrong_order_fails_naming_the_operator_and_line() -> None:
    (problem,) = check(doc("Project [a, a + 1 AS x]", "+- Sort [x]", "   +- t"))
    assert problem.startswith("jvm/src/X.scala:2: the drawing's Sort (drawing line 4)")
    assert "Project Project SubqueryAlias View Project OneRowRelation" in problem


def test_an_invented_operator_fails() -> None:
    (problem,) = check(doc("Project [x, y]", "+- Window [a]", "   +- Project [a, x]"))
    assert (
        "the drawing's Window (drawing line 4) is not in the plan of g.sql.out:8 after Project"
        in problem
    )


def test_a_missing_golden_line_fails() -> None:
    (problem,) = check(doc("Project [x]", "+- t", golden=None))
    assert problem.startswith("jvm/src/X.scala:2: the drawing has no `* Golden:")


@pytest.mark.parametrize(
    ("golden", "message"),
    [
        ("g.sql: FROM t", "3 cases of g.sql.out contain 'FROM t' (lines 8, 19, 29); name one"),
        ("g.sql: x * 3", "no `-- !query` case of g.sql.out contains 'x * 3'"),
        ("h.sql: x * 2", "analyzer-results has no h.sql.out"),
        ("g.sql: nope", "g.sql.out:29 has no analyzed plan"),
    ],
    ids=["ambiguous substring", "substring in no case", "missing golden file", "case without plan"],
)
def test_a_golden_line_that_names_no_one_plan_fails(golden: str, message: str) -> None:
    (problem,) = check(doc("Project [x]", "+- t", golden=golden))
    assert message in problem


def test_a_side_by_side_drawing_is_read_on_its_right() -> None:
    left_wrong = doc(
        "Sort [x]                 Project [x, x * 2 AS y]",
        "+- Project [x]     =>    +- Project [a, a + 1 AS x]",
        "                            +- SubqueryAlias t",
    )
    assert check(left_wrong) == []
    right_wrong = doc(
        "Project [x]              Sort [x]",
        "+- Project [x]     =>    +- Project [a, a + 1 AS x]",
    )
    (problem,) = check(right_wrong)
    assert "the drawing's Sort (drawing line 3)" in problem


def test_a_stacked_drawing_is_read_below_its_arrow() -> None:
    stacked = doc("'Sort [x]", "+- 'Project [x]", "=>", "Sort [x]", "+- Project [a AS x]")
    assert check(stacked.replace("x * 2 AS y", "ORDER BY x")) == []
    wrong = doc("Project [x]", "=>", "Sort [x]", "+- Project [a AS x]")
    (problem,) = check(wrong)
    assert "the drawing's Sort (drawing line 5)" in problem


def test_a_drawing_no_golden_shows_names_a_test_that_exists() -> None:
    held = "none (MERGE does not run on the golden tables):\n *   tests/test_drawings.py::"
    assert check(doc("MergeIntoTable", "+- t", golden=held + "test_a_true_drawing_passes")) == []
    (problem,) = check(doc("MergeIntoTable", "+- t", golden=held + "test_gone"))
    assert "names test_gone, which tests/test_drawings.py does not define" in problem
    (problem,) = check(doc("MergeIntoTable", "+- t", golden="none: tests/test_drawings.py::check"))
    assert "is neither" in problem


def test_a_block_without_tree_lines_is_no_drawing() -> None:
    assert drawings("X.scala", "/**\n * {{{\n *   SELECT a AS x, x + 1\n * }}}\n */") == []
