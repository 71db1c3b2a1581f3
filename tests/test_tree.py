"""The tree's sizes and places (docs/development.md, "Layout"), held by a test rather than by
review: no source file outside the tests over 600 lines; no Python function or method over 120
lines and no class over 400, outside the tests and the docs' examples; no main Scala file over
300 lines (shims included); and `python/` holds what the wheel ships (the package and its import
shim), never a build script. Each test lists everything it found. Reads the sources only: no
Spark."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

# Line-independent (CI runs it on the default line only). Source files only.
pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parent.parent
FILE_LINES = 600
FUNCTION_LINES = 120
CLASS_LINES = 400
SCALA_MAIN_LINES = 300
# What the wheel ships from python/: the package and the .pth file that imports its shim.
PACKAGE = {"colsem", "colsem_autoregister.py", "colsem_autoregister.pth"}
# Tests may run long (a test module per feature); the docs' examples are read, not maintained.
TESTS = ("tests/", "jvm/src/test/")
EXAMPLES = ("docs/",)
SKIPPED_DIRS = {"build", "dist", "target", "__pycache__", "node_modules"}


def sources(root: Path, suffixes: tuple[str, ...] = (".py", ".scala")) -> list[Path]:
    """The source files under root, leaving out what builds, venvs and caches put there."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS]
        found += [Path(folder) / f for f in files if f.endswith(suffixes)]
    return sorted(found)


def relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def line_count(path: Path) -> int:
    return len(path.read_text().splitlines())


def long_files(root: Path) -> list[str]:
    """Source files outside the tests over FILE_LINES lines, as `path: N lines`."""
    return [
        f"{relative(p, root)}: {n} lines"
        for p in sources(root)
        if not relative(p, root).startswith(TESTS) and (n := line_count(p)) > FILE_LINES
    ]


def long_definitions(path: Path, name: str) -> list[str]:
    """The functions (methods included) over FUNCTION_LINES lines and the classes over CLASS_LINES
    in one Python file, as `name:line: function f, N lines`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        lines = (node.end_lineno or node.lineno) - node.lineno + 1 if hasattr(node, "lineno") else 0
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and lines > FUNCTION_LINES:
            found.append(f"{name}:{node.lineno}: function {node.name}, {lines} lines")
        elif isinstance(node, ast.ClassDef) and lines > CLASS_LINES:
            found.append(f"{name}:{node.lineno}: class {node.name}, {lines} lines")
    return found


def long_python_definitions(root: Path) -> list[str]:
    return [
        found
        for p in sources(root, (".py",))
        if not relative(p, root).startswith(TESTS + EXAMPLES)
        for found in long_definitions(p, relative(p, root))
    ]


def long_scala_main_files(root: Path) -> list[str]:
    main = root / "jvm" / "src" / "main"
    if not main.is_dir():
        return []
    return [
        f"{relative(p, root)}: {n} lines"
        for p in sources(main, (".scala",))
        if (n := line_count(p)) > SCALA_MAIN_LINES
    ]


def outside_the_package(root: Path) -> list[str]:
    """What python/ holds beside the package and its import shim (a build script belongs in
    buildtools/)."""
    python = root / "python"
    if not python.is_dir():
        return []
    return sorted(
        relative(p, root)
        for p in python.iterdir()
        if p.name not in PACKAGE and not p.name.startswith(".") and p.name not in SKIPPED_DIRS
    )


def test_no_source_file_over_600_lines():
    assert long_files(ROOT) == [], f"split these along their seams: {long_files(ROOT)}"


def test_no_python_function_over_120_lines_nor_class_over_400():
    found = long_python_definitions(ROOT)
    assert found == [], f"split these along their seams: {found}"


def test_no_main_scala_file_over_300_lines():
    found = long_scala_main_files(ROOT)
    assert found == [], f"split these along their seams (a rule's parts, each a file): {found}"


def test_python_holds_only_the_package():
    found = outside_the_package(ROOT)
    assert found == [], f"python/ is what the wheel ships; build scripts go in buildtools/: {found}"


def test_the_checks_find_what_they_look_for(tmp_path: Path):
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    (tmp_path / "tool").mkdir()
    (tmp_path / "tool" / "big.py").write_text(
        f"def long():\n{body}\n\n\ndef short():\n    return 1\n" + "\n" * FILE_LINES
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_big.py").write_text(f"def test_long():\n{body}\n" * 5)
    (tmp_path / "python" / "colsem").mkdir(parents=True)
    (tmp_path / "python" / "build_jar.py").write_text("")
    scala = tmp_path / "jvm" / "src" / "main" / "scala"
    scala.mkdir(parents=True)
    (scala / "Rule.scala").write_text("object Rule\n" * (SCALA_MAIN_LINES + 1))
    assert long_files(tmp_path) == [f"tool/big.py: {FUNCTION_LINES + 5 + FILE_LINES} lines"]
    assert long_python_definitions(tmp_path) == [
        f"tool/big.py:1: function long, {FUNCTION_LINES + 1} lines"
    ]
    assert long_scala_main_files(tmp_path) == [
        f"jvm/src/main/scala/Rule.scala: {SCALA_MAIN_LINES + 1} lines"
    ]
    assert outside_the_package(tmp_path) == ["python/build_jar.py"]
