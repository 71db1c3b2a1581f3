"""The build scripts' shared command line: the ``--line`` option and a build error's exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from build_versions import JarBuildError


def add_line_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--line L``, repeatable or comma separated (``--line 3.5,4.3``)."""
    parser.add_argument("--line", action="append", default=[], help=help)


def chosen_lines(args: argparse.Namespace) -> list[str]:
    """The lines ``--line`` named, in order."""
    return [name.strip() for item in args.line for name in item.split(",") if name.strip()]


def exit_code(action: Callable[[], object]) -> int:
    """Runs a script's action: 0, or 1 with the build error on stderr as ``error: ...``."""
    try:
        action()
    except JarBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
