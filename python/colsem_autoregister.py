"""Automatic registration, run at interpreter start-up by colsem_autoregister.pth.

It must cost nothing when Spark is not used, so it is a top-level module that imports only what
start-up has loaded already (not even the colsem package, nor pyspark): it waits for
``pyspark.sql.session`` to be imported, then wraps ``SparkSession.Builder.getOrCreate`` so that a
plain ``SparkSession.builder.getOrCreate()`` gets colsem (``colsem.configure`` semantics, merged
with the user's settings), and so does the Spark Connect server PySpark starts for
``remote("local[2]")``, ``spark.api.mode=connect`` or ``SPARK_REMOTE=local[2]``.
``COLSEM_AUTOREGISTER=0`` turns it off.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder

TARGET = "pyspark.sql.session"


def _patch(module) -> None:  # type: ignore[no-untyped-def]
    import functools

    builder_class = module.SparkSession.Builder
    original = builder_class.getOrCreate
    if getattr(original, "__colsem_wrapped__", False):
        return

    @functools.wraps(original)
    def getOrCreate(self):  # type: ignore[no-untyped-def]
        from colsem._configure import autoconfigure

        autoconfigure(self)
        return original(self)

    getOrCreate.__colsem_wrapped__ = True  # type: ignore[attr-defined]
    builder_class.getOrCreate = getOrCreate


class _PatchingLoader:
    """pyspark.sql.session's own loader, patching the module once it has run. A wrapper, not a
    change to the loader: a zip's loader (spark-submit puts pyspark.zip on the path) is shared by
    every module in the zip."""

    def __init__(self, loader) -> None:  # type: ignore[no-untyped-def]
        self._loader = loader

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:  # type: ignore[no-untyped-def]
        self._loader.exec_module(module)
        try:
            _patch(module)
        except Exception as exc:  # never break pyspark's import
            import warnings

            warnings.warn(
                f"colsem could not install its automatic registration: {exc}", stacklevel=1
            )

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._loader, name)


class _SessionModuleFinder:
    """Finds nothing itself; when pyspark.sql.session is being imported, gives its spec a loader
    that patches the module right after it executes."""

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname != TARGET:
            return None
        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _PatchingLoader(spec.loader)  # type: ignore[assignment]  # duck-typed Loader
        return spec


def install() -> None:
    if os.environ.get("COLSEM_AUTOREGISTER", "1").strip() == "0":
        return
    if TARGET in sys.modules:
        _patch(sys.modules[TARGET])
    elif not any(isinstance(f, _SessionModuleFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SessionModuleFinder())


install()
