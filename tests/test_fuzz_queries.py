"""The fuzzer's queries, pinned: seeds 1-5, 20 queries each, as `make fuzz` numbers them
(`seed * 1000003 + index`), in the three texts the oracles run (as written, with every lateral
alias inlined, and inlined with grouping sets written out). A change to the generator or the
renderer that changes one byte of any of them changes what every past seed meant; if that is
intended, record them again:

    .venv/bin/python tests/test_fuzz_queries.py > tests/fuzzing/queries.json

No Spark."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fuzz.generator import Generator  # noqa: E402
from fuzz.render import render  # noqa: E402

# Line-independent (CI runs it on the default line only): the generator's text, no Spark.
pytestmark = pytest.mark.once

PINNED = ROOT / "tests" / "fuzzing" / "queries.json"
SEEDS = range(1, 6)
QUERIES = 20


def queries() -> dict[str, dict[str, str]]:
    out = {}
    for seed in SEEDS:
        for index in range(QUERIES):
            q = Generator(seed * 1000003 + index).query()
            out[f"{seed}/{index}"] = {
                "written": render(q),
                "inlined": render(q, inline=True),
                "inlined_sets_written_out": render(q, inline=True, sets_written_out=True),
            }
    return out


def test_every_pinned_seed_gives_the_same_queries():
    pinned = json.loads(PINNED.read_text())
    now = queries()
    changed = sorted(k for k in pinned if pinned[k] != now.get(k))
    assert (changed, sorted(now) == sorted(pinned)) == ([], True), (
        f"queries that changed (seed/index): {changed}"
    )


if __name__ == "__main__":
    print(json.dumps(queries(), indent=1, sort_keys=True))
