"""The corpus run: files in order, each statement under vanilla and under colsem (two JVMs,
concurrently), outcomes compared and classified, the report written.

    python -m peer [--settings NAME[,NAME]] [--files GLOB[,GLOB] | --slice ci] [--out PATH]

Vanilla's outcomes do not depend on colsem's settings: they are kept per corpus version, Spark
version and harness version in ~/.cache/colsem/peer/<version>/vanilla/, so a setting after the
first (and a later run) starts only the colsem JVM."""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sparkpipe.client import LOST_CLASS, Worker

from . import compare, corpus
from .report import markdown

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
# Files whose outcomes vanilla answers depend on: a change makes a new cache.
HARNESS_FILES = ["peer/worker.py", "peer/corpus.py", "sparkpipe/session.py"]
PROGRESS_SECONDS = 30.0


def running_line() -> str:
    import pyspark

    return ".".join(pyspark.__version__.split(".")[:2])


def harness_fingerprint() -> str:
    h = hashlib.sha1()
    for f in HARNESS_FILES:
        h.update((ROOT / f).read_bytes())
    return h.hexdigest()[:12]


def colsem_commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
        return head + ("-dirty" if dirty else "")
    except OSError:
        return "unknown"


class VanillaCache:
    """One JSON file per corpus file: its statements, settings, outcomes and re-run outcomes."""

    def __init__(self, folder: Path):
        self.folder = folder

    def path(self, name: str) -> Path:
        return self.folder / (name + ".json")

    @staticmethod
    def key(f: corpus.TestFile) -> str:
        return hashlib.sha1(json.dumps([f.statements, f.conf, f.python_udfs]).encode()).hexdigest()

    def get(self, f: corpus.TestFile) -> dict[str, Any] | None:
        p = self.path(f.name)
        if not p.exists():
            return None
        data = json.loads(p.read_text())
        return data if data.get("key") == self.key(f) else None

    def put(
        self, f: corpus.TestFile, answers: list[dict[str, Any]], reruns: dict[int, Any]
    ) -> None:
        p = self.path(f.name)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(
            json.dumps(
                {
                    "key": self.key(f),
                    "answers": answers,
                    "reruns": {str(k): v for k, v in reruns.items()},
                }
            )
        )
        tmp.replace(p)


class Run:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.stop_requested = False
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="colsem-peer-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.colsem: Worker | None = None
        self.vanilla: Worker | None = None
        self.colsem_setting: str | None = None
        # The build under test is the one at the start: commits made during a run change nothing it ran.
        self.commit = colsem_commit()

    def log(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    # -- workers
    def worker(self, mode: str, conf: dict[str, str]) -> Worker:
        w = Worker(
            "peer.worker", mode, self.workdir, {"op": "setup"}, [str(self.folder), json.dumps(conf)]
        )
        w.start()
        return w

    def colsem_for(self, setting: str) -> Worker:
        if self.colsem_setting != setting:
            if self.colsem:
                self.colsem.stop()
            self.colsem = self.worker("colsem", compare.SETTINGS[setting])
            self.colsem_setting = setting
        return self.colsem

    def vanilla_worker(self) -> Worker:
        if self.vanilla is None:
            self.vanilla = self.worker("vanilla", {})
        return self.vanilla

    # -- one file
    def run_file(self, setting: str, f: corpus.TestFile, st: dict[str, Any]) -> bool:
        """Runs one file; False when stopped by a signal before its end."""
        timeout = self.args.timeout
        cached = self.cache.get(f)
        c = self.colsem_for(setting)
        v = None if cached else self.vanilla_worker()
        requests = {"op": "begin", "conf": f.conf, "python_udfs": f.python_udfs}
        c.send([requests])
        if v:
            v.send([requests])
            v.collect(1, 600)
        c.collect(1, 600)
        v_answers: list[dict[str, Any]] = cached["answers"] if cached else []
        reruns: dict[int, Any] = {int(k): x for k, x in cached["reruns"].items()} if cached else {}
        complete = True
        aborted_at: int | None = None
        for i, sql in enumerate(f.statements):
            if self.stop_requested:
                complete = False
                break
            if cached and i >= len(v_answers):  # vanilla's JVM was lost before this one
                aborted_at = i
                break
            c.send([{"op": "run", "sql": sql}])
            if v:
                v.send([{"op": "run", "sql": sql}])
                v_answers.append(v.collect(1, timeout)[0])
            ca = c.collect(1, timeout)[0]
            va = v_answers[i]
            st["statements"] += 1
            lost = [
                n
                for n, a in (("vanilla", va), ("colsem", ca))
                if a.get("error", {}).get("class") == LOST_CLASS
            ]
            cls, k = compare.classify(setting, sql, va, ca)
            if cls == compare.DIFFERENCE and compare.plan_text_names(setting, sql, k):
                again_c = c.call(
                    [{"op": "run", "sql": s} for s in compare.spark_named_rerun(setting, sql)],
                    timeout,
                )[1]
                if compare.same_rows(va, again_c):
                    cls, k = compare.DIALECT_PLAN_TEXT, None
            relation = (
                compare.metadata_relation(setting, sql, k) if cls == compare.DIFFERENCE else None
            )
            if relation:
                shown = c.call([{"op": "run", "sql": f"SHOW COLUMNS IN {relation}"}], timeout)[0]
                if compare.renamed_metadata(va, ca, shown.get("lines") or []):
                    cls, k = compare.DIALECT_METADATA, None
            if cls == compare.DIFFERENCE and k == "rows":
                again_c = c.call([{"op": "rerun", "sql": sql}], timeout)[0]
                if v and i not in reruns:
                    reruns[i] = v.call([{"op": "rerun", "sql": sql}], timeout)[0]
                if compare.nondeterministic(ca, again_c) or compare.nondeterministic(
                    va, reruns.get(i)
                ):
                    cls, k = compare.NONDETERMINISTIC, None
            self.record(st, setting, f, i, sql, cls, k, va, ca)
            if lost:
                st["worker_lost"].append({"file": f.name, "statement": i + 1, "jvm": lost})
                aborted_at = i + 1
                break
            self.progress()
        if aborted_at is not None and aborted_at < len(f.statements):
            n = len(f.statements) - aborted_at
            st["counts"][compare.SKIPPED] += n
            st["aborted"].append(
                {"file": f.name, "from_statement": aborted_at + 1, "statements": n}
            )
        c.call([{"op": "end"}], 600)
        if v:
            v.call([{"op": "end"}], 600)
            # Vanilla's outcomes are cached when it answered every statement, or up to its own loss.
            vanilla_lost = (
                bool(v_answers) and v_answers[-1].get("error", {}).get("class") == LOST_CLASS
            )
            if complete and (len(v_answers) == len(f.statements) or vanilla_lost):
                self.cache.put(f, v_answers, reruns)
        return complete

    def record(
        self,
        st: dict[str, Any],
        setting: str,
        f: corpus.TestFile,
        i: int,
        sql: str,
        cls: str,
        k: str | None,
        va: dict[str, Any],
        ca: dict[str, Any],
    ) -> None:
        st["counts"][cls] += 1
        if cls in (compare.SAME_ROWS, compare.SAME_ERROR):
            return
        entry = {
            "file": f.name,
            "statement": i + 1,
            "sql": sql,
            "vanilla": compare.brief(va),
            "colsem": compare.brief(ca),
        }
        if k:
            entry["kind"] = k
        if ca.get("reports"):
            entry["reports"] = ca["reports"]
        if cls == compare.DIFFERENCE:
            st["differences"].append(entry)
            self.total_differences += 1
        else:
            st["listed"].setdefault(cls, []).append(entry)

    def progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_progress < PROGRESS_SECONDS:
            return
        self.last_progress = now
        elapsed = now - self.t0
        rate = self.statements_done() / max(elapsed, 1e-9)
        remaining = self.statements_total - self.statements_done()
        eta = remaining / rate if rate > 0 else float("inf")
        self.log(
            f"[peer] {self.files_done}/{self.files_total} files, {self.statements_done()}/"
            f"{self.statements_total} statements, {self.total_differences} differences, "
            f"{rate:.1f} statements/s, ETA {eta / 60:.1f} min"
        )

    def statements_done(self) -> int:
        return sum(st["statements"] for st in self.stats.values())

    # -- the run
    def run(self) -> dict[str, Any]:
        args = self.args
        self.line = running_line()
        self.version, self.folder = corpus.corpus(self.line, self.log)
        names = corpus.all_names(self.folder)
        skipped = {n: r for n in names if (r := corpus.skip_reason(n, self.folder))}
        patterns = (
            corpus.SLICES[args.slice]
            if args.slice
            else (args.files.split(",") if args.files else None)
        )
        selected = corpus.select(names, patterns) if patterns else names
        files = [corpus.load(n, self.folder) for n in selected if n not in skipped]
        settings = args.settings.split(",")
        import pyspark

        self.spark_version = pyspark.__version__
        self.cache = VanillaCache(
            corpus.cache_dir()
            / "peer"
            / self.version
            / "vanilla"
            / f"{self.spark_version}-{harness_fingerprint()}"
        )
        if args.no_cache:
            self.cache = VanillaCache(self.workdir / "vanilla")
        self.stats: dict[str, dict[str, Any]] = {}
        self.files_total = len(files) * len(settings)
        self.statements_total = sum(len(f.statements) for f in files) * len(settings)
        self.files_done = 0
        self.total_differences = 0
        self.log(
            f"[peer] Spark {self.spark_version}, corpus {self.version} ({self.folder}), "
            f"{len(files)} files, {sum(len(f.statements) for f in files)} statements, "
            f"settings {', '.join(settings)}; JVM logs in {self.workdir}"
        )
        previous = {
            sig: signal.signal(sig, self._request_stop) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        self.t0 = self.last_progress = time.monotonic()
        try:
            for setting in settings:
                if self.stop_requested:
                    break
                st = self.stats[setting] = {
                    "counts": Counter(),
                    "statements": 0,
                    "files": 0,
                    "differences": [],
                    "listed": {},
                    "worker_lost": [],
                    "aborted": [],
                    "seconds": 0.0,
                    "vanilla_cached_files": 0,
                    "file_seconds": {},
                }
                t = time.monotonic()
                for f in files:
                    if self.stop_requested:
                        break
                    st["vanilla_cached_files"] += self.cache.get(f) is not None
                    started = time.monotonic()
                    if self.run_file(setting, f, st):
                        st["files"] += 1
                    st["file_seconds"][f.name] = round(time.monotonic() - started, 1)
                    self.files_done += 1
                st["seconds"] = round(time.monotonic() - t, 1)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for w in (self.colsem, self.vanilla):
                if w:
                    w.stop()
        self.progress(force=True)
        report = self.report(files, skipped, selected, settings)
        self.write(report)
        return report

    def _request_stop(self, signum: int, frame: Any) -> None:
        if self.stop_requested:
            raise KeyboardInterrupt
        self.stop_requested = True
        self.log(
            f"\n[peer] {signal.Signals(signum).name}: stopping after this statement and writing a "
            "partial report (again to stop at once)"
        )

    def report(
        self,
        files: list[corpus.TestFile],
        skipped: dict[str, str],
        selected: list[str],
        settings: list[str],
    ) -> dict[str, Any]:
        args = self.args
        per_setting = {}
        for name, st in self.stats.items():
            per_setting[name] = {
                "conf": compare.SETTINGS[name],
                "files": st["files"],
                "statements": st["statements"],
                "seconds": st["seconds"],
                "statements_per_second": round(st["statements"] / max(st["seconds"], 1e-9), 2),
                "vanilla_cached_files": st["vanilla_cached_files"],
                "counts": {c: st["counts"].get(c, 0) for c in compare.CLASSES},
                "differences": st["differences"],
                "allowed": st["listed"],
                "worker_lost": st["worker_lost"],
                "aborted": st["aborted"],
                "file_seconds": st["file_seconds"],
            }
        return {
            "line": self.line,
            "spark_version": self.spark_version,
            "corpus_version": self.version,
            "colsem_commit": self.commit,
            "command": "python -m peer " + " ".join(sys.argv[1:]),
            "partial": self.stop_requested,
            "selection": args.slice or args.files or "all",
            "files": len(files),
            "statements_per_file_run": sum(len(f.statements) for f in files),
            "skipped_files": {n: r for n, r in skipped.items() if n in selected}
            if (args.slice or args.files)
            else skipped,
            "config_dims": {f.name: f.dims for f in files if f.dims},
            "allowed_classes": compare.ALLOWED,
            "settings": per_setting,
            "seconds": round(time.monotonic() - self.t0, 1),
        }

    def write(self, report: dict[str, Any]) -> None:
        args = self.args
        full = not (args.slice or args.files) and not report["partial"]
        if args.out:
            base = Path(args.out)
        elif full:
            base = RESULTS / self.line
        else:
            label = args.slice or "files"
            base = (
                RESULTS / "local" / f"{self.line}-{label}{'-partial' if report['partial'] else ''}"
            )
        base = base.with_suffix("") if base.suffix in (".md", ".json") else base
        base.parent.mkdir(parents=True, exist_ok=True)
        Path(f"{base}.json").write_text(json.dumps(report, indent=1) + "\n")
        Path(f"{base}.md").write_text(markdown(report))
        self.log(f"[peer] report: {base}.md, {base}.json")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m peer",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--settings",
        default=",".join(compare.SETTINGS),
        help=f"comma list of {', '.join(compare.SETTINGS)} (default: all)",
    )
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--files", help="comma list of globs on paths under sql-tests/inputs")
    sel.add_argument("--slice", choices=sorted(corpus.SLICES), help="a named selection of files")
    p.add_argument(
        "--out",
        help="report path without extension (default: peer/results/<line> for a "
        "full run, peer/results/local/... otherwise)",
    )
    p.add_argument("--timeout", type=float, default=120, help="seconds per statement")
    p.add_argument("--workdir", help="warehouses and JVM logs (default: a temp dir)")
    p.add_argument(
        "--no-cache", action="store_true", help="run vanilla again (cache in the workdir)"
    )
    p.add_argument(
        "--list", action="store_true", help="print the selected files and statements, run nothing"
    )
    args = p.parse_args(argv)
    unknown = [s for s in args.settings.split(",") if s not in compare.SETTINGS]
    if unknown:
        p.error(f"unknown settings {unknown}; known: {', '.join(compare.SETTINGS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.list:
        version, folder = corpus.corpus(running_line(), lambda t: print(t, file=sys.stderr))
        names = corpus.all_names(folder)
        patterns = (
            corpus.SLICES[args.slice]
            if args.slice
            else (args.files.split(",") if args.files else None)
        )
        for n in corpus.select(names, patterns) if patterns else names:
            reason = corpus.skip_reason(n, folder)
            f = corpus.load(n, folder)
            print(
                f"{n}\t{len(f.statements)} statements" + (f"\tskipped: {reason}" if reason else "")
            )
        return 0
    report = Run(args).run()
    diffs = sum(s["counts"]["difference"] for s in report["settings"].values())
    print(
        json.dumps(
            {
                "corpus": report["corpus_version"],
                "partial": report["partial"],
                "differences": {
                    k: s["counts"]["difference"] for k, s in report["settings"].items()
                },
            }
        )
    )
    return 1 if diffs else 0
