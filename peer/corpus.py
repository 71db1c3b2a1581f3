"""The corpus: which test jar, fetching and unpacking it, the files to run and how
SQLQueryTestSuite turns one into statements and settings.

The splitting rules are the suite's (SQLQueryTestHelper.splitCommentsAndCodes / getQueries /
getSparkSettings / getSparkConfigDimensions), written here from their description:
- a line whose trimmed text starts with `--` is a comment, except `--QUERY-DELIMITER...`;
- `--IMPORT path.sql` (path relative to inputs/) puts that file's code lines first;
- with a `--QUERY-DELIMITER-START` line, the lines up to `--QUERY-DELIMITER-END` are one
  statement (a trailing `;` dropped), the code around them split as usual;
- code is split at every `;` not preceded by a backslash (not only at line ends: the suite does
  the same, and the corpus avoids `;` in literals outside delimited blocks);
- each statement is trimmed, lines starting with `--` inside it dropped, empty ones skipped;
- `--SET k=v[,k=v]` lines give the file's settings; `--CONFIG_DIMn k=v[,k=v]` lines are config
  sets of dimension n, the suite runs every combination and this harness the first set of each
  dimension."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ROOT / "jvm" / "versions.properties"

# Directories whose files need the suite's compiled test UDF/UDAF/UDTF classes.
UDF_DIRS = ("udf/", "udaf/", "udtf/")
# The suite's own ignore list: a file that exists to test ignoring.
IGNORED = ("ignored.sql",)

# The CI slice (--slice ci): the files about what colsem changes: select lists, aliases,
# generators, grouping, windows, CTEs, subqueries, views, session variables and parameterless
# functions; sized to run in at most 6 minutes on the default line on the shared 2-core machine
# (docs/peer.md has the measurement). Lateral joins, SQL scripting and the long
# sql-session-variables.sql run in the full corpus.
SLICES: Dict[str, Tuple[str, ...]] = {
    "ci": ("*alias*", "generators*.sql", "group-by.sql", "grouping_set.sql", "window.sql",
           "cte.sql", "cte-nested.sql", "subquery/scalar-subquery/scalar-subquery-select.sql",
           "subquery/in-subquery/in-basic.sql", "subquery/exists-subquery/exists-basic.sql",
           "view-conf.sql", "view-schema-binding.sql", "session-variable-precedence.sql",
           "current_database_catalog.sql", "parameterless-function-name-precedence.sql",
           "column-resolution-*.sql"),
}


# ---------------------------------------------------------------- versions and fetching
def properties() -> Dict[str, str]:
    out = {}
    for line in VERSIONS.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def cache_dir() -> Path:
    override = os.environ.get("COLSEM_CACHE_DIR")
    if override:
        return Path(override)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "colsem"


def candidates(line: str, props: Dict[str, str]) -> List[str]:
    """Releases whose test jar may hold line L's corpus, newest first: `line.L.corpus.version`
    when set, else L's Spark version and the patch releases below it, then the same for each
    older line of the same major version."""
    pinned = props.get(f"line.{line}.corpus.version")
    if pinned:
        return [pinned]
    lines = sorted((l for l in props["lines"].split(",") if l.split(".")[0] == line.split(".")[0]
                    and tuple(map(int, l.split("."))) <= tuple(map(int, line.split(".")))),
                   key=lambda l: tuple(map(int, l.split("."))), reverse=True)
    out = []
    for l in lines:
        major, minor, patch = props[f"line.{l}.spark.version"].split(".")[:3]
        out += [f"{major}.{minor}.{p}" for p in range(int(patch), -1, -1)]
    return out


def m2_repository() -> Path:
    return Path(os.environ.get("COLSEM_M2_REPO") or Path.home() / ".m2" / "repository")


def maven_jar(coordinate: str) -> Optional[Path]:
    """The jar of `group:artifact:version[:classifier]` in the local Maven repository, fetched from
    Maven Central the first time (`mvn dependency:get`); None when Maven Central has none."""
    group, artifact, version, *classifier = coordinate.split(":")
    suffix = f"-{classifier[0]}" if classifier else ""
    jar = (m2_repository().joinpath(*group.split(".")) / artifact / version
           / f"{artifact}-{version}{suffix}.jar")
    if not jar.exists():
        full = f"{group}:{artifact}:{version}:jar" + (f":{classifier[0]}" if classifier else "")
        cmd = ["mvn", "-q", "dependency:get", f"-Dartifact={full}", "-Dtransitive=false"]
        if os.environ.get("COLSEM_M2_REPO"):
            cmd.append(f"-Dmaven.repo.local={m2_repository()}")
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return jar if jar.exists() else None


def fetch_jar(version: str, scala: str) -> Optional[Path]:
    return maven_jar(f"org.apache.spark:spark-sql_{scala}:{version}:tests")


def unpacked(line: str, kind: str, unpack: Callable[[Path, Path], None],
             log: Callable[[str], None] = print) -> Tuple[str, Path]:
    """(version, folder) of what `unpack(jar, folder)` takes out of line L's spark-sql test jar,
    done once into ~/.cache/colsem/<kind>/<version>/. The folder appears whole or not at all
    (unpacked beside it, then renamed), under a lock, so parallel test processes fetch once."""
    import fcntl
    import shutil

    props = properties()
    scala = props[f"line.{line}.scala.binary"]
    root = cache_dir() / kind
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for version in candidates(line, props):
            folder = root / version
            if (folder / ".complete").exists():
                return version, folder
            log(f"[{kind}] looking for org.apache.spark:spark-sql_{scala}:{version}:jar:tests on Maven Central")
            jar = fetch_jar(version, scala)
            if jar is None:
                continue
            partial = root / f"{version}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(folder, ignore_errors=True)
            partial.mkdir()
            unpack(jar, partial)
            (partial / ".complete").write_text(f"{jar}\n")
            partial.rename(folder)
            return version, folder
    raise RuntimeError(f"no spark-sql test jar found on Maven Central for Spark line {line} (tried "
                       f"{', '.join(candidates(line, props))}): check that `mvn` reaches Maven Central")


def extract(jar: Path, folder: Path, prefixes: Tuple[str, ...]) -> None:
    with zipfile.ZipFile(jar) as z:
        for name in z.namelist():
            if name.startswith(prefixes) and not name.endswith("/"):
                z.extract(name, folder)


def corpus(line: str, log: Callable[[str], None] = print) -> Tuple[str, Path]:
    """(version, folder holding sql-tests/inputs and test-data) for Spark line L, fetched once
    into ~/.cache/colsem/peer/<version>/."""
    return unpacked(line, "peer", lambda jar, folder: extract(jar, folder, ("sql-tests/inputs/", "test-data/")), log)


# ---------------------------------------------------------------- files
@dataclass
class TestFile:
    name: str                     # path under sql-tests/inputs, e.g. "subquery/in-subquery/in-basic.sql"
    statements: List[str]
    conf: Dict[str, str]          # directory mode, --SET, first set of each --CONFIG_DIM
    dims: List[str] = field(default_factory=list)   # the config dimensions (only the first set runs)
    python_udfs: bool = False     # postgreSQL/: booleq, boolne, vol


def is_comment(line: str) -> bool:
    s = line.strip()
    return s.startswith("--") and not s.startswith("--QUERY-DELIMITER")


def _split_semicolons(lines: Sequence[str]) -> List[str]:
    return re.split(r"(?<=[^\\]);", "\n".join(lines))


def split(text: str, imported: Callable[[str], str] = lambda name: "") -> List[str]:
    """The statements of one file (imported files' code first)."""
    lines = text.split("\n")
    comments = [l for l in lines if is_comment(l)]
    code = [l for l in lines if not is_comment(l)]
    before: List[str] = []
    for c in comments:
        if c.startswith("--IMPORT "):
            before += [l for l in imported(c[len("--IMPORT "):]).split("\n") if not is_comment(l)]
    code = before + code
    if any(l.strip().startswith("--QUERY-DELIMITER") for l in code):
        chunks: List[str] = []
        pending: List[str] = []
        block: Optional[str] = None
        for l in code:
            s = l.strip()
            if s.startswith("--QUERY-DELIMITER-START"):
                chunks += _split_semicolons(pending)
                pending, block = [], ""
            elif s.startswith("--QUERY-DELIMITER-END"):
                chunks.append("\n" + (block or "").removesuffix(";"))
                block = None
            elif block is not None:
                block += "\n" + l
            else:
                pending.append(l)
        if pending:
            chunks += _split_semicolons(pending)
    else:
        chunks = _split_semicolons(code)
    out = []
    for chunk in chunks:
        chunk = "\n".join(l for l in chunk.strip().split("\n") if not l.startswith("--")).strip()
        if chunk:
            out.append(chunk)
    return out


def _pairs(text: str) -> List[Tuple[str, str]]:
    out = []
    for kv in text.split(","):
        k, _, v = kv.partition("=")
        out.append((k.strip(), v.strip()))
    return out


def settings(text: str) -> Tuple[Dict[str, str], List[str]]:
    """The --SET settings and the first set of each --CONFIG_DIM dimension (later wins), and the
    dimension names."""
    comments = [l for l in text.split("\n") if is_comment(l)]
    conf: Dict[str, str] = {}
    for c in comments:
        if c.startswith("--SET "):
            conf.update(_pairs(c[len("--SET "):]))
    first: Dict[str, List[Tuple[str, str]]] = {}
    for c in comments:
        if c.startswith("--CONFIG_DIM"):
            rest = c[len("--CONFIG_DIM"):]
            dim, _, sets = rest.partition(" ")
            first.setdefault(dim, _pairs(sets))
    for pairs in first.values():
        conf.update(pairs)
    return conf, sorted(first)


def mode_conf(name: str, suite_4x: bool) -> Tuple[Dict[str, str], bool]:
    """The settings the suite gives a file by its directory, and whether it registers the
    postgreSQL helper UDFs. Spark 4 runs every file with ANSI on except nonansi/; Spark 3.5 only
    ansi/ and postgreSQL/."""
    if name.startswith("postgreSQL/"):
        return {"spark.sql.ansi.enabled": "true", "spark.sql.legacy.interval.enabled": "true"}, True
    if name.startswith("nonansi/"):
        return {"spark.sql.ansi.enabled": "false"}, False
    if name.startswith("ansi/"):
        return {"spark.sql.ansi.enabled": "true"}, False
    if name.startswith("timestampNTZ/"):
        return {"spark.sql.timestampType": "TIMESTAMP_NTZ"}, False
    return ({"spark.sql.ansi.enabled": "true"} if suite_4x else {}), False


def all_names(folder: Path) -> List[str]:
    inputs = folder / "sql-tests" / "inputs"
    return sorted(str(p.relative_to(inputs)) for p in inputs.rglob("*.sql"))


def skip_reason(name: str, folder: Path) -> Optional[str]:
    if name.startswith(UDF_DIRS):
        return "needs the suite's compiled test UDF/UDAF/UDTF classes"
    if os.path.basename(name) in IGNORED:
        return "the suite's own ignore list"
    inputs = folder / "sql-tests" / "inputs"
    for line in (inputs / name).read_text().split("\n"):
        if line.startswith("--IMPORT ") and line[len("--IMPORT "):].strip().startswith(UDF_DIRS):
            return f"imports {line[len('--IMPORT '):].strip()} (test UDF classes)"
    return None


def select(names: List[str], patterns: Sequence[str]) -> List[str]:
    """Names matching any pattern (fnmatch on the path under inputs/; `*` crosses `/`, so
    `subquery/**` and `group-by*` both work; a pattern without `/` also matches base names)."""
    out = []
    for n in names:
        for p in patterns:
            if fnmatch.fnmatchcase(n, p) or ("/" not in p and fnmatch.fnmatchcase(os.path.basename(n), p)):
                out.append(n)
                break
    return out


def load(name: str, folder: Path) -> TestFile:
    inputs = folder / "sql-tests" / "inputs"
    text = (inputs / name).read_text()

    def imported(other: str) -> str:
        path = inputs / other.strip()
        return path.read_text() if path.exists() else ""

    suite_4x = (inputs / "nonansi").is_dir()
    conf, udfs = mode_conf(name, suite_4x)
    extra, dims = settings(text)
    conf.update(extra)
    return TestFile(name, split(text, imported), conf, dims, udfs)
