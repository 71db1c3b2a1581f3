"""Hatch hooks: build one jar per Spark line into the wheel, and take version and dependencies from
jvm/versions.properties (and the project URLs from jvm/project.properties, which the POMs read
too) so those files stay the one source of truth."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.metadata.plugin.interface import MetadataHookInterface

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_jar
import build_versions

# The `test` extra: the tools the tests use (the Makefile's venvs install them too).
TEST_REQUIREMENTS = [
    "pytest>=8",
    "pyspark[connect]",
    "pandas>=2.2,<3",
    "duckdb>=1.1",
    "matplotlib>=3.8",
]


class ColsemMetadataHook(MetadataHookInterface):
    def update(self, metadata: dict[str, Any]) -> None:
        versions = build_versions.read_versions()
        metadata["version"] = versions["colsem.version"]
        # Every line the wheel carries a jar for, as one specifier set. An extra, not a requirement:
        # pip cannot accept "pyspark or pyspark-client", and requiring pyspark would pull PyPI's
        # whole pyspark over a pyspark-client install (pyproject.toml).
        metadata["optional-dependencies"] = {
            "pyspark": [
                f"pyspark{build_versions.supported_union(versions, build_versions.all_lines(versions))}"
            ],
            "test": TEST_REQUIREMENTS,
        }
        project = build_versions.read_project()
        metadata["urls"] = {
            "Homepage": project["project.url"],
            "Documentation": project["project.docs.url"],
            "Source": project["scm.url"],
            "Issues": project["project.issues.url"],
            "Changelog": project["project.changelog.url"],
        }


# A development build's lines (`make demo` and `make test` set it to the running line, comma-separated):
# those lines' jars are compiled, and jars of other lines already built stay in the wheel. A
# release (`make dist`) and a user's `pip install` never set it, so they carry every line.
JAR_LINES_VARIABLE = "COLSEM_JAR_LINES"


class ColsemJarHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        lines = [line for line in os.environ.get(JAR_LINES_VARIABLE, "").split(",") if line]
        try:
            jars = build_jar.build_jars(lines or None)
        except build_versions.JarBuildError as exc:
            raise SystemExit(f"colsem: cannot build the jars: {exc}") from None
        # build_jars returns the jars it built; build.json lists every jar left in the folder.
        for jar in sorted(build_jar.JAR_DIR.glob("*.jar")) if lines else jars:
            build_data["force_include"][str(jar)] = f"colsem/jars/{jar.name}"
        build_data["force_include"][str(build_jar.JAR_DIR / "build.json")] = (
            "colsem/jars/build.json"
        )
