"""Records the column name real SQLite, PostgreSQL and MariaDB give each unaliased item of the
naming corpus (corpus.py), as golden files in tests/naming/golden/<engine>.json.

    python tests/naming/record_engine_names.py [--engines sqlite,postgres,mariadb]

SQLite is Python's sqlite3. PostgreSQL and MariaDB are Debian's packages: installed with apt-get
when absent (as root), then started by this script on a private Unix socket in a temporary
directory (no TCP port), as the current user (as the `postgres`/`mysql` system user when run as
root, since neither server runs as root), and stopped afterwards. Each item runs as
``SELECT <item> FROM t`` over the same small table; an item an engine rejects is recorded with
its error's first line. MariaDB gets each statement byte for byte (see exact_statement).
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import json
import os
import pwd
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import COLUMNS, ITEMS, TABLE_ROWS  # noqa: E402

GOLDEN = HERE / "golden"
Runner = Callable[[str], dict[str, str]]


def sql_value(v: str | None) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, str) and not v.replace(".", "").isdigit():
        return "'" + v.replace("'", "''") + "'"
    return str(v)


def setup_statements() -> list[str]:
    cols = ", ".join(f"{n} {t}" for n, t in COLUMNS)
    rows = ", ".join("(" + ", ".join(sql_value(v) for v in row) + ")" for row in TABLE_ROWS)
    return [f"CREATE TABLE t ({cols})", f"INSERT INTO t VALUES {rows}"]


def query(item: str) -> str:
    return f"SELECT {item} FROM t"


def first_line(text: str) -> str:
    """The error's message line (the MariaDB client prints the statement in a box before it)."""
    lines = [
        ln.strip() for ln in text.strip().splitlines() if ln.strip() and not ln.startswith("----")
    ]
    errors = [ln for ln in lines if ln.upper().startswith("ERROR")]
    return (errors or lines or ["error"])[0]


# --- SQLite -------------------------------------------------------------------------------------


def run_sqlite() -> dict[str, object]:
    con = sqlite3.connect(":memory:")
    for s in setup_statements():
        con.execute(s)
    results = []
    for item in ITEMS:
        try:
            cur = con.execute(query(item))
            results.append({"item": item, "name": cur.description[0][0]})
        except sqlite3.Error as exc:
            results.append({"item": item, "error": first_line(str(exc))})
    return {"engine": "sqlite", "version": sqlite3.sqlite_version, "results": results}


# --- servers ------------------------------------------------------------------------------------


def server_user(system_user: str) -> str | None:
    """Whom to run a server as: the current user, or a system user when running as root."""
    return system_user if os.geteuid() == 0 else None


def as_user(user: str | None, cmd: list[str]) -> list[str]:
    return ["runuser", "-u", user, "--"] + cmd if user else cmd


def apt_install(packages: list[str]) -> None:
    if os.geteuid() != 0:
        raise SystemExit(
            f"{packages} missing: install them (apt-get install {' '.join(packages)}) or run as root"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + packages,
        check=True,
        env=env,
    )


def pg_bin() -> Path:
    roots = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not roots:
        apt_install(["postgresql"])
        roots = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    return roots[-1]


@contextmanager
def private_dir(user: str | None) -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="colsem-naming-"))
    try:
        if user:
            os.chmod(base, 0o755)
            pw = pwd.getpwnam(user)
            os.chown(base, pw.pw_uid, pw.pw_gid)
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[Runner]:
    bindir = pg_bin()
    user = server_user("postgres")
    with private_dir(user) as base:
        data, sock = base / "data", base
        subprocess.run(
            as_user(
                user,
                [
                    str(bindir / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "colsem",
                    "--no-sync",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ],
            ),
            check=True,
            capture_output=True,
        )
        opts = f"-k {sock} -c listen_addresses='' -p 54329 -c fsync=off"
        subprocess.run(
            as_user(
                user,
                [
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    opts,
                    "-l",
                    str(base / "log"),
                    "-w",
                    "start",
                ],
            ),
            check=True,
            capture_output=True,
        )
        psql = [
            str(bindir / "psql"),
            "-X",
            "-q",
            "-h",
            str(sock),
            "-p",
            "54329",
            "-U",
            "colsem",
            "-d",
            "postgres",
        ]
        try:
            for s in setup_statements():
                subprocess.run(
                    psql + ["-v", "ON_ERROR_STOP=1", "-c", s], check=True, capture_output=True
                )

            def run(item: str) -> dict[str, str]:
                p = subprocess.run(
                    psql + ["--csv", "-v", "ON_ERROR_STOP=1", "-c", query(item)],
                    capture_output=True,
                    text=True,
                )
                if p.returncode != 0:
                    return {"error": first_line(p.stderr)}
                header = next(csv.reader(io.StringIO(p.stdout)))
                return {"name": header[0]}

            yield run
        finally:
            subprocess.run(
                as_user(
                    user, [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]
                ),
                capture_output=True,
            )


def postgres_version(bindir: Path) -> str:
    return subprocess.run(
        [str(bindir / "postgres"), "--version"], capture_output=True, text=True
    ).stdout.strip()


@contextmanager
def mariadb_server() -> Iterator[Runner]:
    if not shutil.which("mariadbd") and not Path("/usr/sbin/mariadbd").exists():
        apt_install(["mariadb-server", "mariadb-client"])
    mariadbd = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
    user = server_user("mysql")
    with private_dir(user) as base:
        data, sock = base / "data", base / "mysqld.sock"
        run_as = ["--user=" + (user or pwd.getpwuid(os.getuid()).pw_name)]
        subprocess.run(
            as_user(
                user,
                [
                    "mariadb-install-db",
                    "--no-defaults",
                    f"--datadir={data}",
                    "--auth-root-authentication-method=normal",
                    "--skip-test-db",
                ]
                + run_as,
            ),
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            as_user(
                user,
                [
                    mariadbd,
                    "--no-defaults",
                    f"--datadir={data}",
                    f"--socket={sock}",
                    "--skip-networking",
                    f"--pid-file={base / 'pid'}",
                    f"--log-error={base / 'log'}",
                    "--skip-grant-tables",
                ]
                + run_as,
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = ["mariadb", "--no-defaults", f"--socket={sock}", "-u", "root"]
        try:
            for _ in range(300):
                if subprocess.run(client + ["-e", "SELECT 1"], capture_output=True).returncode == 0:
                    break
                time.sleep(0.1)
            else:
                raise RuntimeError("MariaDB did not start: " + (base / "log").read_text()[-2000:])
            subprocess.run(
                client + ["-e", "CREATE DATABASE naming"], check=True, capture_output=True
            )
            for s in setup_statements():
                subprocess.run(client + ["naming", "-e", s], check=True, capture_output=True)

            def run(item: str) -> dict[str, str]:
                # Bytes, decoded without text mode's newline translation (a name may hold "\r\n").
                p = subprocess.run(
                    client + ["naming", "--xml", "-e", exact_statement(query(item))],
                    capture_output=True,
                )
                if p.returncode != 0:
                    return {"error": first_line(p.stderr.decode("utf-8", "replace"))}
                return {"name": first_field_name(p.stdout.decode("utf-8"))}

            yield run
        finally:
            server.terminate()
            server.wait(timeout=60)


def exact_statement(sql: str) -> str:
    """A client command that makes the server run `sql` byte for byte, as an application's driver
    sends it: the mariadb client rewrites what it is given (it strips comments, and re-spaces text
    even with --comments), but not a prepared statement's text given in hex."""
    return (
        f"SET @q = CONVERT(X'{sql.encode().hex()}' USING utf8mb4); "
        "PREPARE q FROM @q; EXECUTE q; DEALLOCATE PREPARE q;"
    )


def first_field_name(xml: str) -> str:
    """The first column's name in the client's --xml output, read without an XML parser: XML's
    attribute-value normalization would make every line break and tab in it a space."""
    match = re.search(r'<field name="([^"]*)"', xml)
    if match is None:
        raise RuntimeError(f"no column in MariaDB's output: {xml[:500]}")
    return html.unescape(match.group(1))


def mariadb_version() -> str:
    return subprocess.run(
        ["mariadb", "--no-defaults", "--version"], capture_output=True, text=True
    ).stdout.strip()


def run_server(engine: str, server, version: Callable[[], str]) -> dict[str, object]:
    with server() as run:
        results = [dict(item=item, **run(item)) for item in ITEMS]
    return {"engine": engine, "version": version(), "results": results}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="sqlite,postgres,mariadb")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(exist_ok=True)
    for engine in args.engines.split(","):
        started = time.time()
        if engine == "sqlite":
            record = run_sqlite()
        elif engine == "postgres":
            record = run_server("postgres", postgres_server, lambda: postgres_version(pg_bin()))
        elif engine == "mariadb":
            record = run_server("mariadb", mariadb_server, mariadb_version)
        else:
            raise SystemExit(f"unknown engine {engine!r}: sqlite, postgres or mariadb")
        path = GOLDEN / f"{engine}.json"
        # Written beside and moved into place: CI records while the tests read these files.
        written = path.with_suffix(".json.new")
        written.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
        written.replace(path)
        accepted = sum(1 for r in record["results"] if "name" in r)
        print(
            f"{engine} ({record['version']}): {accepted}/{len(ITEMS)} items accepted -> {path} "
            f"in {time.time() - started:.1f}s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
