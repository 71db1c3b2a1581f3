"""Concurrency: 8 threads x 500 queries on one session, and 8 threads x 500 queries spread over
sessions (newSession()) with different colsem settings. No exceptions beyond the expected ones,
no cross-talk between sessions' settings, every answer equal to the single-threaded answer."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from golden import condition
from pyspark.errors import AnalysisException

# Soaks: 8,000 queries a run (the long tier).
pytestmark = pytest.mark.long

THREADS = 8
PER_THREAD = 500
VALUES = 20

# (template, collect?): rows are compared where the query runs without a Spark job (VALUES
# folded by the optimizer); for aggregates and windows the analyzed schema is compared, which
# is where colsem's rules act.
TEMPLATES: list[tuple[Callable[[int], str], bool]] = [
    (lambda i: f"SELECT {i} AS a, a + 1 AS b, b * 2 AS c", True),
    (lambda i: f"SELECT * FROM VALUES ({i}, 'x', {i * 2}) AS t(id, v, _row_id)", True),
    (
        lambda i: (
            f"SELECT id AS k, k + _row_id AS s, * EXCEPT (v) FROM VALUES ({i}, 'x', 3) AS t(id, v, _row_id)"
        ),
        True,
    ),
    (
        lambda i: (
            f"SELECT v AS g, id * 2 AS d, sum(d + _row_id) AS s FROM VALUES ({i}, 'x', 1), ({i}, 'y', 2) "
            f"AS t(id, v, _row_id) GROUP BY v, id"
        ),
        False,
    ),
    (lambda i: f"SELECT {i} AS x, sum(x) OVER () AS total, upper(concat('a', x)) AS u", False),
]

SETTINGS: dict[str, dict[str, str]] = {
    "default": {},
    "native_lateral_aliases": {"spark.colsem.lateralAlias.enabled": "false"},
    "hide_underscored": {
        "spark.colsem.star.exclude": "PATTERN",
        "spark.colsem.star.excludePattern": "_.*",
    },
    "colsem_off": {"spark.colsem.enabled": "false"},
}

Answer = tuple


def answer(session, template: int, value: int) -> Answer:
    text, collect = TEMPLATES[template]
    try:
        df = session.sql(text(value))
        if not collect:
            return ("schema", df.schema.simpleString())
        return tuple(df.columns), tuple(sorted(tuple(r) for r in df.collect()))
    except AnalysisException as exc:
        return ("error", condition(exc))


def plan(thread: int) -> list[tuple[int, int]]:
    """The (template, value) pairs one thread runs: a fixed, thread-specific order."""
    return [
        ((thread + k) % len(TEMPLATES), (thread * 7 + k * 3) % VALUES) for k in range(PER_THREAD)
    ]


@pytest.fixture(scope="module")
def sessions(spark):
    made = {}
    for name, conf in SETTINGS.items():
        session = spark.newSession()
        for key, value in conf.items():
            session.conf.set(key, value)
        made[name] = session
    return made


@pytest.fixture(scope="module")
def expected(sessions) -> dict[tuple[str, int, int], Answer]:
    """Single-threaded answers for every session, template and value."""
    return {
        (name, t, i): answer(session, t, i)
        for name, session in sessions.items()
        for t in range(len(TEMPLATES))
        for i in range(VALUES)
    }


def test_the_settings_really_differ(expected):
    """Guards the test itself: each session's answers differ from the default somewhere."""
    assert expected[("default", 1, 5)] == (("id", "v", "_row_id"), ((5, "x", 10),))
    assert expected[("hide_underscored", 1, 5)] == (("id", "v"), ((5, "x"),))
    refused = ("error", "UNSUPPORTED_FEATURE.LATERAL_COLUMN_ALIAS_IN_AGGREGATE_FUNC")
    assert expected[("native_lateral_aliases", 3, 5)] == expected[("colsem_off", 3, 5)] == refused
    assert expected[("default", 3, 5)] == ("schema", "struct<g:string,d:int,s:bigint>")


def _run(assignments: list[str], sessions, expected) -> list[str]:
    def work(thread: int) -> list[str]:
        name = assignments[thread]
        wrong = []
        for t, i in plan(thread):
            got = answer(sessions[name], t, i)
            if got != expected[(name, t, i)]:
                wrong.append(
                    f"thread {thread} ({name}) {TEMPLATES[t][0](i)!r}: {got} != {expected[(name, t, i)]}"
                )
        return wrong

    with ThreadPoolExecutor(THREADS) as pool:
        return [w for result in pool.map(work, range(THREADS)) for w in result]


def test_eight_threads_on_one_session(sessions, expected):
    assert _run(["default"] * THREADS, sessions, expected) == []


def test_eight_threads_on_sessions_with_different_settings(sessions, expected):
    names = list(SETTINGS)
    assert _run([names[t % len(names)] for t in range(THREADS)], sessions, expected) == []
