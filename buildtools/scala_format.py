"""The Scala sources' formatter: scalafmt with the repository's ``.scalafmt.conf``.

    python buildtools/scala_format.py           rewrite every Scala source in place (``make fmt``)
    python buildtools/scala_format.py --check   list each file scalafmt would change and each line over
                                            100 columns, and fail on any (``make lint``)

The sources are every ``*.scala`` under ``jvm/src`` (main, test and every shim folder) and
``tests/extensions`` (extensions the tests compile), and ``build.sbt``. scalafmt's command line (``org.scalameta:scalafmt-cli_2.13`` at the ``version`` of
``.scalafmt.conf``) comes from Maven Central: Maven resolves it into ``~/.m2`` once and its classpath
is kept in the colsem cache (``$COLSEM_CACHE_DIR``, default ``~/.cache/colsem``) under
``scalafmt/``, so a warm run starts one JVM and nothing else. The column limit covers what scalafmt
does not split (comments, string literals): split those by hand, a string with ``+``, keeping its
text.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from spark_jars import cache_dir

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".scalafmt.conf"
MAX_COLUMNS = 100
CLI_ARTIFACT = ("org.scalameta", "scalafmt-cli_2.13")
CLI_MAIN = "org.scalafmt.cli.Cli"

# A POM whose only dependency is scalafmt's command line: `mvn dependency:build-classpath` on it
# resolves the command line's jars from Maven Central into ~/.m2 and lists them.
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.colsem.tools</groupId>
  <artifactId>scalafmt-classpath</artifactId>
  <version>0</version>
  <dependencies>
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
    </dependency>
  </dependencies>
</project>
"""


def scala_sources() -> list[Path]:
    """Every Scala source the formatter holds, in a fixed order."""
    roots = (ROOT / "jvm" / "src", ROOT / "tests" / "extensions")
    return sorted(p for root in roots for p in root.rglob("*.scala")) + [ROOT / "build.sbt"]


def scalafmt_version(config: Path = CONFIG) -> str:
    """The `version = X` of .scalafmt.conf: the one scalafmt release the tree is formatted with."""
    found = re.search(r'^version\s*=\s*"?([\w.-]+)"?\s*$', config.read_text(), re.M)
    if not found:
        raise SystemExit(f"{config} has no `version = <scalafmt release>` line")
    return found.group(1)


def cli_classpath(version: str) -> str:
    """scalafmt-cli's classpath, resolved by Maven from Maven Central once per version."""
    cached = cache_dir() / "scalafmt" / f"scalafmt-cli-{version}.classpath"
    if cached.is_file():
        classpath = cached.read_text().strip()
        if classpath and all(Path(jar).is_file() for jar in classpath.split(":")):
            return classpath
    if shutil.which("mvn") is None:
        raise SystemExit("Maven fetches scalafmt: apt-get install maven (or put mvn on the PATH)")
    group, artifact = CLI_ARTIFACT
    print(f"==> resolving {group}:{artifact}:{version} with Maven (once)", file=sys.stderr)
    cached.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        pom = Path(work) / "pom.xml"
        pom.write_text(POM.format(group=group, artifact=artifact, version=version))
        listed = Path(work) / "classpath"
        # Maven's own output only when it fails (it names the artifact it could not fetch).
        maven = subprocess.run(
            ["mvn", "-q", "-B", "-f", str(pom), "dependency:build-classpath"]
            + [f"-Dmdep.outputFile={listed}"],
            capture_output=True,
            text=True,
        )
        if maven.returncode != 0:
            sys.stderr.write(maven.stdout + maven.stderr)
            raise SystemExit(f"Maven could not resolve {group}:{artifact}:{version}")
        classpath = listed.read_text().strip()
    cached.write_text(classpath + "\n")
    return classpath


def scalafmt(args: list[str], sources: list[Path]) -> int:
    """Runs scalafmt's command line with the repository's config over `sources`."""
    command = ["java", "-cp", cli_classpath(scalafmt_version()), CLI_MAIN]
    command += ["--config", str(CONFIG), "--non-interactive", *args, *map(str, sources)]
    return subprocess.run(command, cwd=ROOT).returncode


def long_lines(sources: list[Path], limit: int = MAX_COLUMNS) -> list[str]:
    """`path:line: N columns` for every line longer than `limit` characters."""
    found = []
    for path in sources:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > limit:
                found.append(f"{path.relative_to(ROOT)}:{number}: {len(line)} columns")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; fail on a file or line to fix"
    )
    options = parser.parse_args(argv)
    sources = scala_sources()
    if not options.check:
        return scalafmt(["--quiet"], sources)
    # --list prints each file scalafmt would change and fails if there is one.
    unformatted = scalafmt(["--list"], sources)
    too_long = long_lines(sources)
    for finding in too_long:
        print(f"{finding} (over {MAX_COLUMNS}: split the comment or string by hand)")
    if unformatted:
        print("scalafmt would change the files listed above: run `make fmt`")
    return 1 if unformatted or too_long else 0


if __name__ == "__main__":
    sys.exit(main())
