"""The Scala code's layers (docs/development.md, "Layers"), read from the folders: the root of
`io.colsem` holds only the entry (`ColsemExtensions`), which wires every feature in; features
(`lca`, `star`, `naming`, `invariants`, `respond`) sit side by side and use only the bottom layer
(the packages `settings`, `errors`, `guards`, `jar`, `status`, `vocabulary`, and the shims); the
bottom layer uses no feature; shims hold only what differs per Spark line (no feature package in
`jvm/src/main/shims/`); no two bottom-layer files use each other; no files inside a feature use
each other around a loop; and no Scala line is over 100 columns. Reads the sources only:
no Spark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from build_jar_access import scala_format

# Line-independent (CI runs it on the default line only). Source files only: the import graph and
# the columns.
pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
MAIN = ROOT / "jvm" / "src" / "main" / "scala" / "io" / "colsem"
SHIMS = ROOT / "jvm" / "src" / "main" / "shims"
FEATURES = ("lca", "star", "naming", "invariants", "respond")
# The bottom layer's kinds, a package each: what ColsemExtensions and every feature sit on.
BOTTOM = ("settings", "errors", "guards", "jar", "status", "vocabulary")
ENTRY = "ColsemExtensions.scala"  # the root's one file: wires every feature in

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
DEFINITION = re.compile(
    r"^(?:final |sealed |abstract |private\[\w+\] )*(?:case )?(?:object|class|trait)\s+(\w+)", re.M
)


def code(path: Path) -> str:
    """The file without comments and string literals (scaladoc names other classes freely)."""
    return STRING.sub('""', COMMENT.sub("", path.read_text()))


def feature_uses(text: str) -> set[str]:
    """The feature packages a file names: `io.colsem.lca...` imports, or `lca.X` from `io.colsem`."""
    return set(re.findall(rf"\bio\.colsem\.({'|'.join(FEATURES)})\b", text)) | set(
        re.findall(rf"(?<![\w.])({'|'.join(FEATURES)})\.[A-Z]", text)
    )


def bottom_files() -> list[Path]:
    return sorted(p for package in BOTTOM for p in (MAIN / package).rglob("*.scala"))


def test_every_folder_is_a_layer():
    # A new package is a feature or a bottom-layer kind (add it to FEATURES or BOTTOM, and to
    # docs/development.md's layers); the root keeps the entry alone.
    folders = sorted(p.name for p in MAIN.iterdir() if p.is_dir())
    unplaced = [f for f in folders if f not in (*FEATURES, *BOTTOM, "shims")]
    at_root = sorted(p.name for p in MAIN.glob("*.scala"))
    assert (unplaced, at_root) == ([], [ENTRY]), (
        f"packages in no layer: {unplaced}; files at the root of io.colsem: {at_root}"
    )


def test_features_use_only_the_bottom_layer():
    crossing = {}
    for feature in FEATURES:
        for path in sorted((MAIN / feature).rglob("*.scala")):
            others = feature_uses(code(path)) - {feature}
            if others:
                crossing[str(path.relative_to(ROOT))] = sorted(others)
    assert crossing == {}, (
        f"a feature imports another feature (move what they share to the bottom layer): {crossing}"
    )


def test_the_bottom_layer_uses_no_feature():
    files = (
        bottom_files() + sorted((MAIN / "shims").rglob("*.scala")) + sorted(SHIMS.rglob("*.scala"))
    )
    using = {
        str(p.relative_to(ROOT)): sorted(feature_uses(code(p)))
        for p in files
        if feature_uses(code(p))
    }
    assert using == {}, f"bottom-layer files that use a feature: {using}"


def test_shims_hold_no_feature_code():
    misplaced = [
        str(p.relative_to(ROOT))
        for p in SHIMS.rglob("*.scala")
        if any(f"/io/colsem/{f}/" in str(p) for f in FEATURES)
    ]
    assert misplaced == [], (
        f"feature code in a shim folder (keep only what differs per line there): {misplaced}"
    )


def test_no_two_bottom_files_use_each_other():
    files = bottom_files()
    defined: dict[Path, set[str]] = {p: set(DEFINITION.findall(p.read_text())) for p in files}
    uses: dict[Path, set[Path]] = {}
    for p in files:
        text = code(p)
        uses[p] = {
            q for q in files if q != p and any(re.search(rf"\b{n}\b", text) for n in defined[q])
        }
    loops = sorted(
        {tuple(sorted((p.name, q.name))) for p in files for q in uses[p] if p in uses[q]}
    )
    assert loops == [], f"bottom-layer files that use each other: {loops}"


def file_cycles(files: list[Path]) -> list[list[str]]:
    """The groups of files that use each other, directly or around a loop (a file uses another when
    it names a class, object or trait the other defines): the strongly connected components of
    more than one file."""
    defined = {p: set(DEFINITION.findall(p.read_text())) for p in files}
    texts = {p: code(p) for p in files}
    uses = {
        p: [
            q for q in files if q != p and any(re.search(rf"\b{n}\b", texts[p]) for n in defined[q])
        ]
        for p in files
    }
    # Tarjan's algorithm, iterative over the few dozen files of a feature.
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    groups: list[list[str]] = []

    def visit(v: Path) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in uses[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w.name)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for p in files:
        if p not in index:
            visit(p)
    return sorted(groups)


@pytest.mark.parametrize("feature", FEATURES)
def test_no_file_cycle_inside_a_feature(feature):
    # A part of a feature reads the parts below it, never the rule that uses it: helpers two parts
    # share go in a small object named for what they answer (lca/CallKinds, lca/AliasNames).
    cycles = file_cycles(sorted((MAIN / feature).rglob("*.scala")))
    assert cycles == [], f"files of {feature}/ that use each other: {cycles}"


def test_file_cycles_finds_a_loop_through_three_files(tmp_path):
    for name, body in {"A": "B.x", "B": "C.y", "C": "A.z", "D": "A.z"}.items():
        (tmp_path / f"{name}.scala").write_text(f"object {name} {{ val v = {body} }}\n")
    assert file_cycles(sorted(tmp_path.glob("*.scala"))) == [["A.scala", "B.scala", "C.scala"]]


def test_no_scala_line_over_100_columns():
    # scalafmt (`make lint`) holds code to 100 columns but cannot split a comment or a string
    # literal; `make lint` checks those too, and so does this test in every suite run.
    too_long = scala_format.long_lines(scala_format.scala_sources())
    assert too_long == [], f"split these by hand (a string with +, keeping its text): {too_long}"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("import io.colsem.lca.LateralAliasCandidate", {"lca"}),
        ("extensions.injectResolutionRule(_ => naming.ResolveDialectAliases)", {"naming"}),
        ('val key = "spark.colsem.star.exclude"', set()),
        ("conf.star.Exclude", set()),
    ],
)
def test_feature_uses_reads_imports_and_package_relative_names(text, expected):
    assert feature_uses(STRING.sub('""', text)) == expected
