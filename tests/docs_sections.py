"""Sections of the docs that tests generate (tables of results between two HTML comments), and
the examples they run as written."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path


def check_generated_section(doc: Path, begin: str, end: str, content: str, how: str) -> None:
    """Assert that `doc` holds `content` between the markers `begin` and `end`; with
    COLSEM_DOCS_REGENERATE=1, write it there first. `how` says how to regenerate it."""
    text = doc.read_text()
    if os.environ.get("COLSEM_DOCS_REGENERATE") == "1":
        start, stop = text.index(begin) + len(begin), text.index(end)
        doc.write_text(text[:start] + "\n" + content + "\n" + text[stop:])
        text = doc.read_text()
    assert f"{begin}\n{content}\n{end}" in text, (
        f"{doc.name}'s generated section is stale: {how} with COLSEM_DOCS_REGENERATE=1 and review the diff"
    )


def run_section_example(
    doc: Path, heading: str, folder: Path, timeout: int = 600
) -> subprocess.CompletedProcess:
    """Run the first ```python block after `heading` in `doc` as a user would: in a new process,
    from an empty `folder` (where its Spark warehouse goes), without automatic registration."""
    from conftest import run_python

    text = doc.read_text()
    example = re.search(r"```python\n(.*?)```", text[text.index(heading) :], re.S).group(1)
    folder.mkdir(exist_ok=True)
    return run_python(
        "import os, sys\nos.chdir(sys.argv[1])\n" + example,
        args=[str(folder)],
        env={"COLSEM_AUTOREGISTER": "0"},
        timeout=timeout,
    )
