"""The driver side of a worker process: one Spark JVM (a Python worker module that owns a
SparkSession) driven over stdin/stdout with one JSON object per line."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent


LOST_CLASS = "WORKER_LOST"


def lost(mode: str, timeout: float) -> dict[str, Any]:
    return {
        "error": {
            "class": LOST_CLASS,
            "state": None,
            "message": f"the {mode} JVM died or answered nothing for {timeout:.0f} s",
        }
    }


class Worker:
    """`python -m MODULE MODE WAREHOUSE [ARGS...]` as a child process; `setup` is the first
    request after every start (its answer is `info`). The worker's stderr (the JVM's log too) goes
    to a file in `workdir`, whose path the worker finds in $SPARKPIPE_LOG."""

    def __init__(
        self,
        module: str,
        mode: str,
        workdir: Path,
        setup: dict[str, Any],
        args: Sequence[str] = (),
        tag: str = "",
    ):
        self.module, self.mode, self.workdir, self.setup = module, mode, workdir, setup
        self.args, self.tag = list(args), tag
        self.starts = 0
        self.info: dict[str, Any] = {}
        self.proc: subprocess.Popen | None = None
        self.log: IO[str] | None = None

    def start(self) -> None:
        self.starts += 1
        # A user's spark-defaults.conf still applies (the tests' sets JIT flags for short JVMs).
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYSPARK_", "SPARK_")) or k == "SPARK_CONF_DIR"
        }
        if self.mode == "vanilla":
            env["COLSEM_AUTOREGISTER"] = "0"
        # Unique per process start (a fuzz golden worker is started afresh for every save).
        name = f"{self.mode}{self.tag}-{self.starts}-{time.time_ns()}"
        warehouse = self.workdir / f"warehouse-{name}"
        log_path = self.workdir / f"{name}.log"
        env["SPARKPIPE_LOG"] = str(log_path)
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module, self.mode, str(warehouse)] + self.args,
            cwd=str(ROOT),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            bufsize=1,
            # Its own session: Ctrl-C in the terminal (or a signal to the runner's process group)
            # reaches only the runner, which finishes its work; a worker ends at stdin's end.
            start_new_session=True,
        )
        self.answers: queue.Queue[dict | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.answers), daemon=True).start()
        self.pending_setup = True
        self.send([self.setup])

    @staticmethod
    def _read(proc: subprocess.Popen, answers: queue.Queue[dict | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            answers.put(json.loads(line))
        answers.put(None)

    def finish_setup(self, timeout: float = 300) -> dict[str, Any]:
        if self.pending_setup:
            try:
                answer = self.answers.get(timeout=timeout)
            except queue.Empty:
                answer = None
            if answer is None:
                raise RuntimeError(f"the {self.mode} worker did not start; see {self.log.name}")
            self.info = answer
            self.pending_setup = False
        return self.info

    def send(self, requests: list[dict]) -> None:
        text = "".join(json.dumps(r) + "\n" for r in requests)
        proc = self.proc

        def write() -> None:
            try:
                assert proc is not None and proc.stdin is not None
                proc.stdin.write(text)
                proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass

        threading.Thread(target=write, daemon=True).start()

    def collect(self, n: int, timeout: float) -> list[dict]:
        """The next n answers; a lost or stuck JVM answers the rest with WORKER_LOST and is
        restarted."""
        self.finish_setup()
        out: list[dict] = []
        while len(out) < n:
            try:
                answer = self.answers.get(timeout=timeout)
            except queue.Empty:
                answer = None
            if answer is None:
                out += [lost(self.mode, timeout)] * (n - len(out))
                self.restart()
                break
            out.append(answer)
        return out

    def restart(self) -> None:
        self.stop()
        self.start()
        self.finish_setup()

    def call(self, requests: list[dict], timeout: float = 120) -> list[dict]:
        self.send(requests)
        return self.collect(len(requests), timeout)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=30)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        if self.log is not None:
            self.log.close()
