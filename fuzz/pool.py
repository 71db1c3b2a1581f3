"""The process pool: the colsem and vanilla Spark JVMs as worker processes (fuzz/worker.py,
behind sparkpipe's pipe), a young vanilla JVM for rechecks, and DuckDB in process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sparkpipe import client as pipe

from .cases import Case
from .values import canon_row


class Worker(pipe.Worker):
    """One Spark JVM behind a pipe (fuzz/worker.py), its tables created at every start."""

    def __init__(
        self,
        mode: str,
        workdir: Path,
        tables: dict[str, str],
        golden: bool = False,
        conf: dict[str, str] | None = None,
    ):
        super().__init__(
            "fuzz.worker",
            mode,
            workdir,
            {"op": "setup", "tables": tables, "conf": conf or {}},
            ["golden"] if golden else [],
            "-golden" if golden else "",
        )


class Duck:
    """DuckDB over the parquet files the colsem JVM wrote."""

    def __init__(self, locations: dict[str, str]):
        import duckdb

        self.con = duckdb.connect()
        for name, loc in locations.items():
            path = loc[len("file:") :] if loc.startswith("file:") else loc
            self.con.execute(
                f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}/*.parquet')"
            )

    def run(self, sql: str) -> dict[str, Any]:
        try:
            return {"rows": [canon_row(r) for r in self.con.execute(sql).fetchall()]}
        except Exception as exc:
            return {"error": {"class": type(exc).__name__, "message": str(exc)[:300]}}


class Pool:
    """The JVMs a run queries: colsem's (with the primary scope setting), vanilla's, and a
    vanilla one for rechecks, started on the first (so it stays young: it runs only rechecks)."""

    def __init__(self, workdir: Path, tables: dict[str, str], colsem_conf: dict[str, str]):
        self.workdir = workdir
        self.tables = tables
        self.colsem = Worker("colsem", workdir, tables, conf=colsem_conf)
        self.vanilla = Worker("vanilla", workdir, tables)
        self.recheck_worker: Worker | None = None  # started on the first recheck

    def start(self) -> dict[str, Any]:
        """Starts both JVMs; colsem's set-up answer (its tables' locations, colsem_status())."""
        self.colsem.start()
        self.vanilla.start()
        c, v = self.colsem.finish_setup(), self.vanilla.finish_setup()
        if not c["loaded"] or v["loaded"]:
            raise RuntimeError(
                f"colsem loaded: colsem JVM {c['loaded']}, vanilla JVM {v['loaded']}"
            )
        return c

    def stop(self) -> None:
        for worker in (self.colsem, self.vanilla, self.recheck_worker):
            if worker is not None:
                worker.stop()

    def run_cases(self, cases: list[Case], timeout: float) -> list[dict[str, dict[str, Any]]]:
        """Every case's requests, sent to both JVMs at once; each case's answers by key."""
        col = [r for c in cases for _, r in c.requests["colsem"]]
        van = [r for c in cases for _, r in c.requests["vanilla"]]
        self.colsem.send(col)
        self.vanilla.send(van)
        col_answers = self.colsem.collect(len(col), timeout)
        van_answers = self.vanilla.collect(len(van), timeout)
        results = []
        ci = vi = 0
        for c in cases:
            res: dict[str, dict[str, Any]] = {}
            for key, _ in c.requests["colsem"]:
                res[key] = col_answers[ci]
                ci += 1
            for key, _ in c.requests["vanilla"]:
                res[key] = van_answers[vi]
                vi += 1
            results.append(res)
        return results

    def recheck(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """A vanilla request answered again by the recheck JVM."""
        if self.recheck_worker is None:
            self.recheck_worker = Worker("vanilla", self.workdir, self.tables)
            self.recheck_worker.start()
        return self.recheck_worker.call([request], timeout)[0]
