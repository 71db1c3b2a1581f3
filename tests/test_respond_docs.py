"""docs/responses.md: its example runs as written and prints exactly the output shown under it."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, run_python
from golden import running_line


@pytest.mark.skipif(
    running_line() == "3.5",
    reason="the example reads a VARIANT column, which Spark "
    "3.5 does not have (docs/versions.md; test_respond.py covers MAP lookups there)",
)
def test_responses_doc_example_prints_what_the_doc_shows() -> None:
    text = (ROOT / "docs" / "responses.md").read_text()
    match = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", text, re.S)
    assert match, "docs/responses.md lost its example and output blocks"
    code, expected = match.groups()
    proc = run_python(code, env={"COLSEM_AUTOREGISTER": "0"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout == expected
