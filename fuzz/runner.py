"""The fuzzer's driver and command line: runs each seeded query on the process pool (pool.py),
checks the answers with the oracles (oracles.py), shrinks what differs and keeps it
(regressions.py), and writes the report (report.py).

    python -m fuzz --seed 1 --count 10000 --seconds 1800

Query number i of seed S is generated from its own random stream (S * 1000003 + i), so
`--seed S --first i --count 1` replays one query."""

from __future__ import annotations

import argparse
import collections
import json
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import data, report
from .cases import (
    DIALECT_KEY,
    ORACLES,
    SCOPED_ORACLES,
    SCOPES,
    SCOPES_KEY,
    Case,
    ScopeSetting,
    inlined_form,
    make_case,
)
from .facts import has_lateral
from .generator import Generator
from .oracles import Difference, Oracles
from .pool import Duck, Pool
from .regressions import RESULTS, rerender_regressions, save_regression
from .render import render
from .shrink import alias_all, shrink
from .tree import Query


class Fuzzer:
    """One run: its settings, the pool and oracles, and what it found (differences, the
    minimal failures shrunk from them, counts)."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.stop_requested = False
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="colsem-fuzz-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.tables = {name: data.create_sql(name) for name in data.SCHEMAS}
        self.settings = [
            ScopeSetting(frozenset(value.split(",")) - {""}, i == 0)
            for i, value in enumerate(dict.fromkeys(args.lateral_scopes or [""]))
        ]
        self.primary = self.settings[0]
        self.oracles = [self.primary.oracle(o) for o in ORACLES] + [
            s.oracle(o) for s in self.settings[1:] for o in SCOPED_ORACLES
        ]
        # The default colsem session, and the star and dialect sessions, read aliases in the
        # primary value's scopes; each other value has a session of its own.
        self.pool = Pool(self.workdir, self.tables, {SCOPES_KEY: self.primary.value})
        self.checks = Oracles(self.settings, self.oracles, self.pool, args.query_timeout)
        self.differences: list[dict[str, Any]] = []
        self.saved: list[dict[str, Any]] = []
        self.queries = 0
        self.lateral = 0
        self.out_of_scope: collections.Counter = collections.Counter()
        self.notes: list[str] = []

    # -- set-up
    def start(self) -> None:
        c = self.pool.start()
        self.checks.duck = Duck(c["locations"])
        self.checks.dialects_active = DIALECT_KEY in c["status"]
        if not self.checks.dialects_active:
            self.notes.append(
                f"dialect oracle skipped: colsem_status() does not list {DIALECT_KEY} "
                "(naming dialects are not in this build)"
            )
            print(f"[fuzz] {self.notes[-1]}", file=sys.stderr)

    def stop(self) -> None:
        self.pool.stop()

    # -- one query
    def case(self, index: int) -> Case:
        q = Generator(self.args.seed * 1000003 + index).query()
        return self.make_case(index, q)

    def make_case(self, index: int, q: Query) -> Case:
        return make_case(index, q, self.settings, self.checks.dialects_active)

    def evaluate(
        self, case: Case, res: dict[str, dict[str, Any]], count: bool = True
    ) -> list[Difference]:
        return self.checks.evaluate(case, res, count)

    # -- failures
    def check_one(self, q: Query, index: int) -> list[Difference]:
        case = self.make_case(index, q)
        return self.evaluate(
            case, self.pool.run_cases([case], self.args.query_timeout)[0], count=False
        )

    def handle(self, case: Case, diffs: list[Difference]) -> None:
        for d in diffs:
            record = {
                "index": case.index,
                "seed": self.args.seed,
                "oracle": d.oracle,
                "kind": d.kind,
                "sql": case.sql,
                "inlined": case.isql,
                "detail": d.detail,
            }
            self.differences.append(record)
        if self.args.no_shrink or len(self.saved) >= self.args.max_shrinks:
            return
        d = diffs[0]
        seen = {(s["oracle"], s["kind"]) for s in self.saved}
        if d.signature in seen:
            return
        print(f"\n[fuzz] query {case.index}: {d.oracle}/{d.kind}; shrinking ...", file=sys.stderr)

        def still_fails(cand: Query) -> bool:
            return any(x.signature == d.signature for x in self.check_one(cand, case.index))

        small = shrink(case.q, still_fails, self.args.shrink_checks, self.args.shrink_seconds)
        if d.oracle.startswith("inline"):
            named = alias_all(small)
            if still_fails(named):
                small = named
        final = self.check_one(small, case.index)
        detail = next((x.detail for x in final if x.signature == d.signature), d.detail)
        entry = {
            "index": case.index,
            "seed": self.args.seed,
            "oracle": d.oracle,
            "kind": d.kind,
            "sql": render(small),
            # The golden reference: the inlined form only where that is the oracle's reference.
            "inlined": inlined_form(small)
            if d.oracle.startswith("inline") and has_lateral(small)
            else None,
            "original": case.sql,
            "detail": detail,
        }
        self.saved.append(entry)
        print(f"[fuzz] minimal: {entry['sql']}", file=sys.stderr)
        if self.args.save_regressions:
            save_regression(entry, self.workdir)

    def rerender_regressions(self) -> None:
        rerender_regressions(self.workdir)

    # -- the run
    def run(self) -> dict[str, Any]:
        """The run and its report. The signal handlers are in place before the JVMs start, so a
        Ctrl-C during start-up also ends with a report (of the queries run: none); a second one
        stops the workers and exits without one."""
        previous = {
            sig: signal.signal(sig, self._request_stop) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            return self._run()
        except KeyboardInterrupt:
            self.stop()
            print("\n[fuzz] stopped at once: no report written", file=sys.stderr, flush=True)
            raise SystemExit(130) from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _run(self) -> dict[str, Any]:
        args = self.args
        start = time.monotonic()
        self.start()
        setup_seconds = time.monotonic() - start
        t0 = time.monotonic()
        index = args.first
        last_print = 0.0
        while (
            self.queries < args.count
            and time.monotonic() - t0 < args.seconds
            and not self.stop_requested
        ):
            n = min(args.batch, args.count - self.queries)
            cases = [self.case(index + i) for i in range(n)]
            index += n
            results = self.pool.run_cases(cases, args.query_timeout)
            for case, res in zip(cases, results):
                self.queries += 1
                self.lateral += case.lateral(self.primary)
                for label, reads in case.out_of_scope.items():
                    self.out_of_scope[label] += bool(reads)
                diffs = self.evaluate(case, res)
                if diffs:
                    self.handle(case, diffs)
            now = time.monotonic()
            if now - last_print > 1.0 or self.queries >= args.count:
                last_print = now
                rate = self.queries / max(now - t0, 1e-9)
                print(
                    f"\r[fuzz] {self.queries}/{args.count} queries  {rate:.1f} q/s  "
                    f"differences: {len(self.differences)}   ",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
        elapsed = time.monotonic() - t0
        print(file=sys.stderr)
        self.stop()
        return report.write(self, elapsed, setup_seconds)

    def _request_stop(self, signum: int, frame: Any) -> None:
        """Ctrl-C or SIGTERM: finish the batch under way and write the report; a second one
        stops at once (no report)."""
        if self.stop_requested:
            raise KeyboardInterrupt
        self.stop_requested = True
        print(
            f"\n[fuzz] {signal.Signals(signum).name}: stopping after this batch and writing the report "
            "(again to stop at once)",
            file=sys.stderr,
            flush=True,
        )


EACH_SCOPE_SETTING = ["", "WHERE", "SUBQUERY", "WHERE,SUBQUERY"]


def _scopes(value: str) -> list[str]:
    """One --lateral-scopes argument: the values of the setting it stands for."""
    if value.strip().lower() == "each":
        return list(EACH_SCOPE_SETTING)
    names = [n.strip().upper() for n in value.split(",") if n.strip()]
    bad = [n for n in names if n not in SCOPES]
    if bad:
        raise argparse.ArgumentTypeError(
            f"{', '.join(bad)}: not a scope (a comma list of {', '.join(SCOPES)}, or `each`)"
        )
    return [",".join(s for s in SCOPES if s in names)]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m fuzz",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=10000, help="queries to run (at most)")
    p.add_argument("--seconds", type=float, default=3600, help="stop after this long (at most)")
    p.add_argument("--first", type=int, default=0, help="index of the first query (replay)")
    p.add_argument("--batch", type=int, default=25, help="queries sent to the JVMs at once")
    p.add_argument(
        "--lateral-scopes",
        type=_scopes,
        action="extend",
        default=None,
        metavar="LIST",
        help=f"{SCOPES_KEY} of the colsem sessions: a comma list of {', '.join(SCOPES)} "
        "(default empty, colsem's default); aliases read in a scope it leaves out "
        "must be refused as vanilla Spark refuses them. Given again (or `each`: "
        "all four values), every query also runs under each further value, with "
        "the vanilla and inline oracles per value; the first is the one the "
        "DuckDB, dialect and star oracles use",
    )
    p.add_argument("--query-timeout", type=float, default=120)
    p.add_argument("--workdir", default=None, help="warehouses and JVM logs (default: a temp dir)")
    p.add_argument("--report-dir", default=str(RESULTS))
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--max-shrinks", type=int, default=5, help="distinct failures to shrink")
    p.add_argument("--shrink-checks", type=int, default=300)
    p.add_argument("--shrink-seconds", type=float, default=240)
    p.add_argument(
        "--save-regressions",
        action="store_true",
        help="append minimal failures to tests/sql/inputs/fuzz_regressions.sql",
    )
    p.add_argument(
        "--rerender-regressions",
        action="store_true",
        help="re-render tests/sql/results/fuzz_regressions.sql.out from vanilla Spark",
    )
    p.add_argument("--show", action="store_true", help="print the queries instead of running them")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.show:
        for i in range(args.first, args.first + args.count):
            q = Generator(args.seed * 1000003 + i).query()
            print(f"-- query {i}\n{render(q)};")
            if has_lateral(q):
                print(f"-- inlined\n{inlined_form(q)};")
        return 0
    if args.rerender_regressions:
        Fuzzer(args).rerender_regressions()
        return 0
    report = Fuzzer(args).run()
    print(
        json.dumps({k: report[k] for k in ("seed", "queries", "queries_per_second", "differences")})
    )
    return 1 if report["differences"] else 0
