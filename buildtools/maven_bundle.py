"""Puts a Spark line's artifact into a Maven repository: the jar and the one POM colsem writes
(sbt's ``makePom`` returns it too), and for Maven Central's bundle the ``-sources`` and
``-javadoc`` (scaladoc) jars and an ``.md5`` and ``.sha1`` of each file.

``make smoke`` runs ``python buildtools/maven_bundle.py --publish-m2 REPO --line L`` (what ``sbt
publishM2`` publishes, without compiling the line a second time); build.sbt runs ``--pom L``;
``make dist`` calls :func:`publish_bundle` through ``release.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from build_cli import add_line_option, chosen_lines, exit_code
from build_jar import (
    build_line,
    check_java,
    compiler_jars,
    manifest,
    resources,
    run_scala_tool,
    scala_sources,
    source_fingerprint,
    source_roots,
    write_license_files,
)
from build_versions import (
    LICENSE_FILES,
    RESOURCES_DIR,
    ROOT,
    JarBuildError,
    artifact_id,
    line_versions,
    log,
    maven_coordinate,
    read_project,
    read_versions,
)
from spark_jars import find_spark_jars

# Scaladoc of each line's sources, reused while the sources are unchanged (make dist).
JAVADOC_DIR = ROOT / "build" / "javadoc"


def pom(lv: dict[str, str]) -> str:
    """The POM of a line's artifact, with what Maven Central requires (name, description, url,
    licenses, scm, developers; from project.properties) and no dependencies: Spark provides Spark
    and Scala, and a POM that listed them would make `spark-submit --packages` fetch them again."""
    p = {key: html.escape(value) for key, value in read_project().items()}
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <groupId>{lv["maven.group"]}</groupId>
    <artifactId>{artifact_id(lv)}</artifactId>
    <version>{lv["colsem.version"]}</version>
    <packaging>jar</packaging>
    <name>colsem-spark-{lv["spark.line"]}</name>
    <description>{pom_description(lv)}</description>
    <url>{p["project.url"]}</url>
    <licenses>
        <license>
            <name>{p["license.name"]}</name>
            <url>{p["license.url"]}</url>
            <distribution>repo</distribution>
        </license>
    </licenses>
    <scm>
        <url>{p["scm.url"]}</url>
        <connection>{p["scm.connection"]}</connection>
        <developerConnection>{p["scm.developerConnection"]}</developerConnection>
    </scm>
    <developers>
        <developer>
            <id>{p["developer.id"]}</id>
            <name>{p["developer.name"]}</name>
            <url>{p["developer.url"]}</url>
        </developer>
    </developers>
</project>
"""


def pom_description(lv: dict[str, str]) -> str:
    """The POM's description (escaped for XML); build.sbt writes the same."""
    return html.escape(
        f"{read_project()['pom.description']} Built for Apache Spark {lv['spark.line']} "
        f"(Scala {lv['scala.binary']})."
    )


def maven_folder(repo: Path, lv: dict[str, str]) -> Path:
    """Where a line's artifact lives in the Maven repository ``repo``."""
    return repo.joinpath(*lv["maven.group"].split("."), artifact_id(lv), lv["colsem.version"])


def publish_m2(line: str, repo: Path) -> Path:
    """Builds (or reuses) a line's jar and puts it with its POM into the Maven repository ``repo``
    (the layout ``sbt publishM2`` writes); returns the folder."""
    lv = line_versions(read_versions(), line)
    jar = build_line(line)
    folder = maven_folder(repo, lv)
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    shutil.copyfile(jar, folder / f"{stem}.jar")
    (folder / f"{stem}.pom").write_text(pom(lv), encoding="utf-8")
    log(f"published {maven_coordinate(lv)} to {repo}")
    return folder


# The files of one artifact's bundle, by what follows ``<artifactId>-<version>``.
BUNDLE_SUFFIXES = (".jar", "-sources.jar", "-javadoc.jar", ".pom")
# Maven Central wants an .md5 and a .sha1 beside each of them (signatures, .asc, are the releaser's).
CHECKSUM_ALGORITHMS = ("md5", "sha1")


def bundle_files(lv: dict[str, str]) -> list[str]:
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    return [stem + suffix for suffix in BUNDLE_SUFFIXES]


def checksum(path: Path, algorithm: str) -> str:
    return hashlib.new(algorithm, path.read_bytes()).hexdigest()


def write_sources_jar(lv: dict[str, str], jar: Path) -> Path:
    """The Scala sources line ``lv`` compiles (shared and shims, by package path) and resources."""
    written: dict[str, Path] = {}
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest(lv))
        write_license_files(zf)
        for root, path in [(r, p) for r in source_roots(lv) for p in sorted(r.rglob("*.scala"))] + [
            (RESOURCES_DIR, p) for p in resources()
        ]:
            name = str(path.relative_to(root))
            if name in written:
                raise JarBuildError(
                    f"{path.relative_to(ROOT)} and {written[name].relative_to(ROOT)} "
                    f"are both {name} in Spark {lv['spark.line']}'s sources."
                )
            written[name] = path
            zf.write(path, name)
    return jar


def _scaladoc(
    java: str, spark_jars: Path, lv: dict[str, str], sources: list[Path], out: Path
) -> None:
    # Scaladoc's HTML writer needs scala-xml beside the compiler on Scala 2.12; pyspark ships it.
    tools = compiler_jars(spark_jars, lv) + sorted(
        spark_jars.glob(f"scala-xml_{lv['scala.binary']}-*.jar")
    )
    options = ["-doc-title", artifact_id(lv), "-doc-version", lv["colsem.version"]]
    result = run_scala_tool(
        java, tools, "scala.tools.nsc.ScalaDoc", options, spark_jars, sources, out
    )
    if result.returncode != 0 or not (out / "index.html").is_file():
        raise JarBuildError(
            f"scaladoc (Spark {lv['spark.line']}, Scala {lv['scala.version']}) failed:\n"
            + (result.stdout + result.stderr).strip()
        )


def build_javadoc_jar(lv: dict[str, str], out_dir: Path = JAVADOC_DIR) -> Path:
    """The scaladoc of line ``lv``'s sources as its ``-javadoc`` jar, in ``out_dir``; reused while
    the sources are unchanged (the zip comment records their fingerprint)."""
    sources = scala_sources(lv)
    fingerprint = source_fingerprint(sources + LICENSE_FILES + [Path(__file__).resolve()], lv)
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = out_dir / f"{artifact_id(lv)}-{lv['colsem.version']}-javadoc.jar"
    if jar.exists():
        with zipfile.ZipFile(jar) as zf:
            if zf.comment.decode() == fingerprint:
                log(f"{jar.name} is up to date")
                return jar
    java = check_java()
    spark_jars = find_spark_jars(lv)
    log(f"scaladoc of {len(sources)} Scala files for Spark {lv['spark.line']} ...")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="colsem-doc-") as docs:
        _scaladoc(java, spark_jars, lv, sources, Path(docs))
        tmp = jar.with_suffix(".tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("META-INF/MANIFEST.MF", manifest(lv))
            write_license_files(zf)
            for path in sorted(p for p in Path(docs).rglob("*") if p.is_file()):
                zf.write(path, str(path.relative_to(docs)))
            zf.comment = fingerprint.encode()
        tmp.replace(jar)
    log(f"wrote {jar.name} in {time.monotonic() - started:.1f}s")
    return jar


def publish_bundle(line: str, repo: Path) -> Path:
    """A line's Maven Central bundle in the Maven repository ``repo``: what :func:`publish_m2` puts
    there plus the ``-sources`` and ``-javadoc`` jars and an .md5 and .sha1 for each file."""
    folder = publish_m2(line, repo)
    lv = line_versions(read_versions(), line)
    stem = f"{artifact_id(lv)}-{lv['colsem.version']}"
    write_sources_jar(lv, folder / f"{stem}-sources.jar")
    shutil.copyfile(build_javadoc_jar(lv), folder / f"{stem}-javadoc.jar")
    for name in bundle_files(lv):
        for algorithm in CHECKSUM_ALGORITHMS:
            (folder / f"{name}.{algorithm}").write_text(
                checksum(folder / name, algorithm), encoding="ascii"
            )
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_line_option(parser, "Spark line to publish (repeatable or comma separated)")
    parser.add_argument(
        "--publish-m2",
        metavar="REPO",
        type=Path,
        help="put each --line's jar and POM into the local Maven repository REPO",
    )
    parser.add_argument("--pom", metavar="LINE", help="print LINE's POM (build.sbt's makePom)")
    args = parser.parse_args(argv)

    def act() -> None:
        if args.pom:
            sys.stdout.write(pom(line_versions(read_versions(), args.pom)))
            return
        if not args.publish_m2:
            raise JarBuildError("give --pom LINE or --publish-m2 REPO --line LINE")
        if not chosen_lines(args):
            raise JarBuildError("--publish-m2 needs --line: the lines to publish")
        for line in chosen_lines(args):
            print(publish_m2(line, args.publish_m2))

    return exit_code(act)


if __name__ == "__main__":
    sys.exit(main())
