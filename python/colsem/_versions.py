"""Which pyspark versions colsem runs on: each bundled jar's PEP 440 range (see ``_build``)."""

from __future__ import annotations

from ._build import UnsupportedSparkVersion, build_info, is_supported, running_pyspark_version

__all__ = ["UnsupportedSparkVersion", "check_pyspark_version", "is_supported"]


def check_pyspark_version(version: str | None = None) -> str:
    """Return the pyspark version, or raise UnsupportedSparkVersion listing what is supported."""
    version = version or running_pyspark_version()
    build_info(version)
    return version
