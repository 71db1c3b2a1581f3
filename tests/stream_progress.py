"""What Spark reports of a stream's micro-batches, read the same way wherever the stream runs: the
tests' classic session (tests/test_streaming.py), a session with Delta and Iceberg in a subprocess
(tests/test_table_formats.py) and a Spark Connect client (tests/test_connect_server.py), each under
one colsem setting, to be compared with the same stream under colsem off altogether."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pyspark.sql.streaming import StreamingQueryListener

# Colsem off altogether, then each `spark.colsem.invariants` setting.
SETTINGS = {
    "vanilla": ("spark.colsem.enabled", "false"),
    "off": ("spark.colsem.invariants", "off"),
    "warn": ("spark.colsem.invariants", "warn"),
    "error": ("spark.colsem.invariants", "error"),
}


def reported(progress: Any) -> list:
    """What a dashboard reads of a micro-batch: its rows in and out, which durations, and each
    state operator's row counts (a list, as JSON carries it out of a subprocess). `progress` is
    PySpark 3.5's dict or PySpark 4's StreamingQueryProgress, read by its properties: on a Connect
    client, whose progress comes as JSON without every field, they fill the gaps (numInputRows is
    the sources' sum) where the dict's own items are None."""
    if not hasattr(progress, "numInputRows"):
        return [
            progress["batchId"],
            progress["numInputRows"],
            progress["sink"]["numOutputRows"],
            sorted(progress["durationMs"]),
            [[s["numRowsTotal"], s["numRowsUpdated"]] for s in progress["stateOperators"]],
        ]
    return [
        progress.batchId,
        progress.numInputRows,
        progress.sink.numOutputRows,
        sorted(progress.durationMs),
        [[s.numRowsTotal, s.numRowsUpdated] for s in progress.stateOperators],
    ]


class _Progress(StreamingQueryListener):
    """Collects `reported` of each progress event."""

    def __init__(self) -> None:
        self.events: list = []

    def onQueryStarted(self, event: Any) -> None:
        pass

    def onQueryProgress(self, event: Any) -> None:
        self.events.append(reported(event.progress))

    def onQueryIdle(self, event: Any) -> None:
        pass

    def onQueryTerminated(self, event: Any) -> None:
        pass


def observe(session: Any, setting: str, start: Callable[[], Any]) -> dict[str, list]:
    """Runs the streaming query `start()` starts in `session` under `setting` until it has read
    everything, then stops it: `reported` of each entry of its `recentProgress`, and of each progress
    event a StreamingQueryListener got. The setting is unset again after."""
    key, value = SETTINGS[setting]
    session.conf.set(key, value)
    listener = _Progress()
    session.streams.addListener(listener)
    try:
        query = start()
        try:
            query.processAllAvailable()
        finally:
            query.stop()
        progress = [reported(p) for p in query.recentProgress]
        deadline = time.monotonic() + 30  # listener events arrive asynchronously
        while len(listener.events) < len(progress) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        session.streams.removeListener(listener)
        session.conf.unset(key)
    return {"progress": progress, "events": list(listener.events)}
