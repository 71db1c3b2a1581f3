"""``colsem sql``'s progress line on stderr: the running stages of a local session or of a Spark
Connect server's operation."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from pyspark.sql.connect.shell.progress import ProgressHandler, StageInfo


def _show_progress(stream: TextIO, elapsed: float, parts: list[str]) -> None:
    line = f"[{' | '.join(parts)}] {elapsed:.1f}s"
    stream.write("\r" + line[:79].ljust(79))
    stream.flush()


def _clear_progress(stream: TextIO) -> None:
    stream.write("\r" + " " * 79 + "\r")
    stream.flush()


def progress(
    spark: SparkSession, stream: TextIO, delay: float
) -> contextlib.AbstractContextManager[Any]:
    """The stage progress line of a local session (Spark's status tracker) or of a Spark Connect
    one (the server's progress reports, PySpark 4; a 3.5 Connect client gets none)."""
    if not type(spark).__module__.startswith("pyspark.sql.connect"):
        return Progress(spark, stream, delay)
    if hasattr(spark, "registerProgressHandler"):
        return ConnectProgress(spark, stream, delay)
    return contextlib.nullcontext()


class Progress:
    """One stderr line for the stages of the running query, from Spark's status tracker."""

    def __init__(
        self, spark: SparkSession, stream: TextIO, delay: float, interval: float = 0.1
    ) -> None:
        self._tracker = spark.sparkContext.statusTracker()
        self._stream = stream
        self._delay = delay
        self._interval = interval
        self._stop = threading.Event()
        self._shown = False
        self._thread = threading.Thread(target=self._run, name="colsem-progress", daemon=True)

    def __enter__(self) -> Progress:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        if self._shown:
            _clear_progress(self._stream)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            elapsed = time.monotonic() - self._started
            if elapsed < self._delay:
                continue
            parts = []
            for stage_id in sorted(self._tracker.getActiveStageIds()):
                info = self._tracker.getStageInfo(stage_id)
                if info is not None:
                    parts.append(
                        f"stage {stage_id}: {info.numCompletedTasks}/{info.numTasks} tasks"
                        f" ({info.numActiveTasks} running)"
                    )
            if parts:
                _show_progress(self._stream, elapsed, parts)
                self._shown = True


class ConnectProgress:
    """The same stderr line from the progress reports a Spark Connect server sends while it runs
    an operation (every spark.connect.progress.reportInterval, a server setting). A
    ``ProgressHandler`` by its call signature: that class exists only from PySpark 4."""

    def __init__(self, spark: SparkSession, stream: TextIO, delay: float) -> None:
        self._spark = spark
        self._stream = stream
        self._delay = delay
        self._shown = False

    def __enter__(self) -> ConnectProgress:
        self._started = time.monotonic()
        self._spark.registerProgressHandler(cast("ProgressHandler", self))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._spark.removeProgressHandler(cast("ProgressHandler", self))
        if self._shown:
            _clear_progress(self._stream)

    def __call__(
        self,
        stages: Iterable[StageInfo] | None,
        inflight_tasks: int,
        operation_id: str | None,
        done: bool,
    ) -> None:
        elapsed = time.monotonic() - self._started
        parts = [
            f"stage {s.stage_id}: {s.num_completed_tasks}/{s.num_tasks} tasks"
            for s in (stages or [])
            if not s.done
        ]
        if parts and not done and elapsed >= self._delay:
            parts[-1] += f" ({inflight_tasks} running)"
            _show_progress(self._stream, elapsed, parts)
            self._shown = True
