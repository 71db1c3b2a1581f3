"""One version (jvm/versions.properties) feeds the wheel, the POMs and the changelog, and each POM
has what Maven Central requires. No Spark: `make dist-check` checks the built artifacts."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest
import tomllib
from build_jar_access import (
    build_versions,
    dist_problems,
    line_versions,
    maven_bundle,
    read_versions,
)
from conftest import ROOT

# Line-independent (CI runs it on the default line only). Versions, POMs and the changelog: no
# Spark.
pytestmark = pytest.mark.once

VERSIONS = read_versions()
VERSION = VERSIONS["colsem.version"]
LINES = build_versions.all_lines(VERSIONS)


def test_the_changelogs_newest_heading_is_the_version():
    assert dist_problems.changelog_version() == VERSION


def test_the_wheel_takes_the_version_and_the_project_urls_from_the_properties():
    from hatch_hooks import ColsemMetadataHook  # buildtools/, on the path through build_jar_access

    metadata: dict = {}
    ColsemMetadataHook(str(ROOT), {}).update(metadata)
    project = build_versions.read_project()
    assert metadata["version"] == VERSION
    assert metadata["urls"] == {
        "Homepage": project["project.url"],
        "Documentation": project["project.docs.url"],
        "Source": project["scm.url"],
        "Issues": project["project.issues.url"],
        "Changelog": project["project.changelog.url"],
    }


@pytest.mark.parametrize("line", LINES)
def test_each_pom_has_what_maven_central_requires(line: str, tmp_path: Path):
    lv = line_versions(VERSIONS, line)
    pom = tmp_path / "colsem.pom"
    pom.write_text(maven_bundle.pom(lv))
    assert dist_problems.pom_problems(pom, lv) == []
    project = ElementTree.parse(pom).getroot()
    ns = dist_problems.POM_NS
    assert project.findtext("m:version", None, ns) == VERSION
    assert project.findtext("m:artifactId", None, ns) == f"colsem-spark-{line}_{lv['scala.binary']}"
    assert project.findtext("m:scm/m:url", None, ns) == build_versions.read_project()["scm.url"]
    assert project.find("m:dependencies", ns) is None


def test_the_pom_check_names_the_file_and_each_missing_element(tmp_path: Path):
    lv = line_versions(VERSIONS, LINES[-1])
    text = maven_bundle.pom(lv)
    scm = text[text.index("    <scm>") : text.index("</scm>") + len("</scm>\n")]
    broken = (
        text.replace(scm, "")
        .replace("<url>https://github.com/colsem/colsem</url>\n", "", 1)
        .replace(f"<version>{VERSION}</version>", "<version>9.9.9</version>")
        .replace(
            "</project>",
            "<dependencies><dependency><groupId>org.apache.spark</groupId>"
            "<artifactId>spark-sql_2.13</artifactId></dependency></dependencies></project>",
        )
    )
    pom = tmp_path / "broken.pom"
    pom.write_text(broken)
    assert dist_problems.pom_problems(pom, lv) == [
        f"{pom}: missing <url>",
        f"{pom}: missing <scm><url>",
        f"{pom}: missing <scm><connection>",
        f"{pom}: missing <scm><developerConnection>",
        f"{pom}: depends on org.apache.spark:spark-sql_2.13 in scope compile; Spark provides it",
        f"{pom}: <version> is '9.9.9', not '{VERSION}'",
    ]


def test_changelog_version_is_the_first_release_heading(tmp_path: Path):
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## [0.2.0] - 2027-01-04\n- x\n\n## [0.1.0] - 2026-12-01\n")
    assert dist_problems.changelog_version(changelog) == "0.2.0"
    changelog.write_text("# Changelog\n\n## Unreleased\n\n## [0.1.0] - 2026-12-01\n")
    assert dist_problems.changelog_version(changelog) is None


def test_licence_metadata_and_files():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert (project["license"], project["license-files"]) == ("Apache-2.0", ["LICENSE", "NOTICE"])
    assert [p.name for p in build_versions.LICENSE_FILES] == ["LICENSE", "NOTICE"]
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.split("\n")[1:3] == [
        "                                 Apache License",
        "                           Version 2.0, January 2004",
    ]
    assert "END OF TERMS AND CONDITIONS" in license_text
    assert (ROOT / "NOTICE").read_text().startswith("colsem\nCopyright 2026 The colsem authors\n")
