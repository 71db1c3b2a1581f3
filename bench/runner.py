"""The bench's processes: each mode's worker processes, run after run with the modes alternating
(a new JVM each, colsem not auto-registered), their figures collected; and streaming's process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.benchmark import Samples, Settings

ROOT = Path(__file__).resolve().parent.parent


def environment(**settings: str) -> dict[str, str]:
    """This process's environment for a child that runs `python -m bench...` from any folder."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, **settings)


def run_worker(name: str, args: list[str]) -> dict[str, float]:
    """The bench's command line in a new process (a new JVM, colsem not auto-registered); its last
    JSON line."""
    proc = subprocess.run(
        [sys.executable, "-m", "bench", *args],
        capture_output=True,
        text=True,
        env=environment(COLSEM_AUTOREGISTER="0"),
        stdin=subprocess.DEVNULL,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{name} worker failed (exit {proc.returncode}):\n{failure(proc.stderr)}")
    return json.loads(lines[-1])


def failure(stderr: str) -> str:
    """What a failed worker's stderr says: the error lines (a Java error's class and message
    included, which its long stack trace would push out of a plain tail) and the last lines."""
    lines = stderr.splitlines()
    errors = [
        line
        for line in lines
        if not line.startswith(("\tat ", "\t... "))
        and any(w in line for w in ("Error", "Exception", "error:"))
    ]
    return "\n".join(["errors:"] + errors[-20:] + ["last lines:"] + lines[-20:])


def worker_args(mode: str, settings: Settings) -> list[str]:
    return (["--costs-only"] if settings.costs_only else []) + [
        "--worker",
        mode,
        "--iterations",
        str(settings.iterations),
        "--queries",
        str(settings.queries),
        "--chains",
        ",".join(map(str, settings.chains)),
        "--shape-rows",
        str(settings.shape_rows),
    ]


def run(runs: int, settings: Settings) -> Samples:
    """`runs` processes per mode, the modes alternating run by run (which goes first too); with
    costs_only, colsem's alone (the cost targets are measured inside colsem's processes, a
    vanilla session beside)."""
    samples: Samples = {"vanilla": [], "colsem": []}
    for i in range(runs):
        modes = ("vanilla", "colsem") if i % 2 == 0 else ("colsem", "vanilla")
        for mode in ("colsem",) if settings.costs_only else modes:
            t0 = time.perf_counter()
            samples[mode].append(run_worker(mode, worker_args(mode, settings)))
            print(
                f"[bench] run {i + 1}/{runs} {mode:7s} {samples[mode][-1]}  ({time.perf_counter() - t0:.0f}s)",
                file=sys.stderr,
                flush=True,
            )
    return samples


def streaming(out: Path, quick: bool) -> None:
    """bench/streaming.py in its own process and JVM (results in latest-streaming.{json,md})."""
    quick_args = ["--quick"] if quick else []
    subprocess.run(
        [sys.executable, "-m", "bench.streaming", "--out", str(out), *quick_args],
        check=True,
        env=environment(),
    )
