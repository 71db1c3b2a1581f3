"""What every benchmark family shares: a run's settings, a worker process's session, the
`@benchmark` registry, and the rows a family reports its figures in.

A benchmark is one function in its family's module, decorated with `@benchmark`: it measures in
each worker process (`Process` in, a dict of figures out) and names, through `rows`, the report
rows built from every process's figures (`Across` the modes' processes, or `InProcess`: two
figures of colsem's own processes side by side)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Each mode's figures, one dict per worker process: {"vanilla": [...], "colsem": [...]}.
Samples = dict[str, list[dict[str, float]]]


@dataclass(frozen=True)
class Settings:
    """A run's settings, the same in the command line's process and in each worker."""

    iterations: int
    queries: int  # the first N TPC-DS queries; 0: all
    chains: tuple[int, ...]
    shape_rows: int
    costs_only: bool  # `--only costs`: the benchmarks marked costs=True, in colsem's processes


@dataclass(frozen=True)
class Process:
    """One worker process: its session (colsem's or vanilla's), its TPC-DS tables and queries."""

    spark: Any
    mode: str  # "vanilla" or "colsem"
    settings: Settings
    queries: list[Path]
    startup_s: float


@dataclass(frozen=True)
class Across:
    """A figure of every process of each mode: vanilla's median (left) against colsem's (right).
    Reported when both modes measured it."""

    name: str
    label: str
    vanilla_key: str = ""  # default: name
    colsem_key: str = ""  # default: name

    def row(self, samples: Samples) -> dict[str, Any] | None:
        v_key, c_key = self.vanilla_key or self.name, self.colsem_key or self.name
        if not (samples["vanilla"] and samples["colsem"]):
            return None
        if v_key not in samples["vanilla"][0] or c_key not in samples["colsem"][0]:
            return None
        vanilla = median(samples["vanilla"], v_key)
        colsem = median(samples["colsem"], c_key)
        ratio = colsem / vanilla if vanilla == vanilla and vanilla > 0 else float("nan")
        return {
            "name": self.name,
            "label": self.label,
            "vanilla": num(vanilla),
            "colsem": num(colsem),
            "ratio": num(ratio, 3),
        }


@dataclass(frozen=True)
class InProcess:
    """Two figures of colsem's processes, left and right (in the table's vanilla and colsem
    columns). ratio: "medians" (right's median over left's) or "runs" (the median of each
    process's own right/left, steadier where the two alternate in one process)."""

    name: str
    label: str
    left: str
    right: str
    ratio: str = "medians"
    target: float | None = None

    def row(self, samples: Samples) -> dict[str, Any] | None:
        colsem = samples["colsem"]
        if not colsem or self.left not in colsem[0] or self.right not in colsem[0]:
            return None
        left, right = median(colsem, self.left), median(colsem, self.right)
        ratio = (
            statistics.median(s[self.right] / s[self.left] for s in colsem)
            if self.ratio == "runs"
            else divide(right, left)
        )
        row: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "vanilla": num(left),
            "colsem": num(right),
            "ratio": num(ratio, 3),
        }
        if self.target is not None:
            row.update(target=self.target, meets_target=ratio <= self.target)
        return row


Row = Across | InProcess


@dataclass(frozen=True)
class Benchmark:
    family: str  # the module that defines it
    measure: Callable[[Process], dict[str, float]]
    rows: Callable[[Settings], Sequence[Row]]
    colsem_only: bool
    costs: bool

    def runs_in(self, mode: str, costs_only: bool) -> bool:
        return (self.costs or not costs_only) and (mode == "colsem" or not self.colsem_only)


# Every benchmark, in the order their modules define them (bench/families.py orders the families).
REGISTERED: list[Benchmark] = []


def benchmark(
    rows: Callable[[Settings], Sequence[Row]], colsem_only: bool = False, costs: bool = False
) -> Callable[[Callable[[Process], dict[str, float]]], Callable[[Process], dict[str, float]]]:
    """Registers a benchmark: the function measures in a worker process; `rows` names its report
    rows. colsem_only: colsem's processes only. costs: part of `--only costs` too."""

    def register(
        measure: Callable[[Process], dict[str, float]],
    ) -> Callable[[Process], dict[str, float]]:
        REGISTERED.append(Benchmark(measure.__module__, measure, rows, colsem_only, costs))
        return measure

    return register


def timed(fn: Callable[[], Any], iterations: int) -> float:
    """The fastest of `iterations` calls, in seconds."""
    best = float("inf")
    for _ in range(iterations):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def median(samples: list[dict[str, float]], key: str) -> float:
    return statistics.median(s[key] for s in samples)


def divide(value: float, base: float) -> float:
    """value / base; NaN (no ratio) when the base is 0, e.g. no RSS growth at all while streaming."""
    return value / base if base else float("nan")


def num(value: float, digits: int = 4) -> float | None:
    """JSON-safe number: None for a failed (NaN) measurement."""
    return None if value != value else round(value, digits)


def show(value: Any) -> Any:
    """A figure in a Markdown table: `fails` for a failed (None) measurement."""
    return "fails" if value is None else value
