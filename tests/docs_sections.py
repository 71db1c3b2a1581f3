"""Sections of the docs that tests generate (tables of results between two HTML comments)."""

from __future__ import annotations

import os
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
        f"{doc.name}'s generated section is stale: {how} with COLSEM_DOCS_REGENERATE=1 and review the diff")
