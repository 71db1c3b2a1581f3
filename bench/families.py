"""The benchmark families, in the order a worker process runs their benchmarks and the report
lists their rows (each family's own benchmarks in the order its module defines them)."""

from __future__ import annotations

from bench import chains, invariants, naming, shapes, star, startup, tpcds
from bench.benchmark import REGISTERED, Benchmark

FAMILIES = (startup, tpcds, invariants, naming, chains, shapes, star)


def benchmarks() -> list[Benchmark]:
    order = {family.__name__: i for i, family in enumerate(FAMILIES)}
    strays = sorted({b.family for b in REGISTERED} - set(order))
    if strays:
        raise SystemExit(f"benchmarks in modules bench/families.py does not list: {strays}")
    return sorted(REGISTERED, key=lambda b: order[b.family])
