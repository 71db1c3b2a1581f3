"""Put colsem into a SparkSession builder: the jar on the driver's classpath and the extension
class in spark.sql.extensions, merged with whatever the user already set there."""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._jars import ColsemError, build_info, check_pyspark_version, jar_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

JARS_KEY = "spark.jars"
PACKAGES_KEY = "spark.jars.packages"
EXTENSIONS_KEY = "spark.sql.extensions"


class ColsemConnectError(ColsemError):
    """colsem.configure was given a Spark Connect builder; colsem lives on the server."""


def connect_instructions() -> str:
    info = build_info()
    return (
        "colsem runs inside the Spark Connect server, not in the client: a Connect client cannot "
        "load jars or set the static conf spark.sql.extensions. Start the server with "
        f"`--jars {jar_path()}` (or `--packages {info.maven_coordinate}`) and "
        f"`--conf {EXTENSIONS_KEY}={info.extension_class}`; from this client, "
        "`SELECT * FROM colsem_status()` (or colsem.status(spark)) then shows it is active."
    )


def merge_list(existing: str | None, item: str) -> str:
    """Append ``item`` to a comma list unless an entry equals it (or, for paths, has its name)."""
    entries = [e.strip() for e in (existing or "").split(",") if e.strip()]
    name = Path(item).name
    if any(e == item or Path(e).name == name for e in entries):
        return ",".join(entries)
    return ",".join(entries + [item])


def spark_defaults() -> dict[str, str]:
    """spark-defaults.conf as spark-submit will read it, so a merge keeps the user's values."""
    conf_dir = os.environ.get("SPARK_CONF_DIR")
    if not conf_dir:
        home = os.environ.get("SPARK_HOME")
        if not home:
            import pyspark

            home = str(Path(pyspark.__file__).parent)
        conf_dir = str(Path(home) / "conf")
    path = Path(conf_dir) / "spark-defaults.conf"
    values: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            match = re.match(r"^\s*([^#\s=:]+)(?:\s*[=:]\s*|\s+)(.*?)\s*$", line)
            if match:
                values[match.group(1)] = match.group(2)
    return values


def _is_remote_only() -> bool:
    """pyspark-client (the Connect client without a JVM) is installed; PySpark 3.5 has no such
    package and no pyspark.util.is_remote_only."""
    from pyspark import util

    check = getattr(util, "is_remote_only", None)
    return bool(check()) if check is not None else False


class Target(Enum):
    """Where the session of ``builder.getOrCreate()`` runs, as PySpark decides it."""

    CLASSIC = "classic"
    # A Spark Connect server PySpark starts in a JVM this Python launches, with the builder's
    # settings: remote("local[2]"), SPARK_REMOTE=local..., spark.api.mode=connect with a master.
    LOCAL_CONNECT = "local connect"
    # A Spark Connect server that runs already (sc://...): its jars and extensions are fixed.
    REMOTE_CONNECT = "remote connect"


def _api_mode(options: Mapping[str, Any]) -> str:
    """spark.api.mode as PySpark 4 reads it (SPARK_API_MODE, then its default: connect where
    pyspark-connect is installed). PySpark 3.5 has no API modes: every builder is classic."""
    try:
        from pyspark.util import default_api_mode
    except ImportError:
        return "classic"
    mode = str(options.get("spark.api.mode", os.environ.get("SPARK_API_MODE", ""))).lower()
    return mode if mode in ("classic", "connect") else str(default_api_mode())


def session_target(builder: SparkSession.Builder) -> Target:
    """The rule of PySpark's ``SparkSession.Builder.getOrCreate`` (3.5 to 4.3): a Connect URL
    (spark.remote or SPARK_REMOTE) starting with ``local``, or, under spark.api.mode=connect, a
    master that is not ``sc://`` (spark.master, MASTER, else ``local``), starts a local server."""
    if _is_remote_only() or type(builder).__module__.startswith("pyspark.sql.connect"):
        return Target.REMOTE_CONNECT  # neither can start a JVM
    options: Mapping[str, Any] = getattr(builder, "_options", {})
    api_connect = _api_mode(options) == "connect"
    url = options.get("spark.remote", os.environ.get("SPARK_REMOTE"))
    if url is None and api_connect:
        url = options.get("spark.master", os.environ.get("MASTER", "local"))
    if url is not None:
        url = str(url)
        if url.startswith("local") or (api_connect and not url.startswith("sc://")):
            return Target.LOCAL_CONNECT
        return Target.REMOTE_CONNECT
    if "SPARK_LOCAL_REMOTE" in os.environ:
        return Target.LOCAL_CONNECT  # the local server this process started takes the session
    if "SPARK_CONNECT_MODE_ENABLED" in os.environ:
        return Target.REMOTE_CONNECT
    return Target.CLASSIC


def _running_jvm_has_colsem() -> bool | None:
    """None when no JVM runs yet; else whether its classpath can load the extension class."""
    from pyspark import SparkContext

    if SparkContext._gateway is None:
        if "PYSPARK_GATEWAY_PORT" not in os.environ:
            return None
        # Started by spark-submit: the JVM runs already; connecting to it sends no conf.
        SparkContext._ensure_initialized()
    gateway = SparkContext._gateway
    assert gateway is not None  # _ensure_initialized joined the running JVM
    jvm = gateway.jvm
    loader = jvm.java.lang.Thread.currentThread().getContextClassLoader()
    try:
        jvm.java.lang.Class.forName(build_info().extension_class, False, loader)
        return True
    except Exception:  # py4j raises Py4JJavaError for ClassNotFoundException
        return False


def _settings_below_builder(jvm_running: bool) -> dict[str, str]:
    """What applies where the builder sets nothing: the running JVM's conf under spark-submit,
    else spark-defaults.conf (which spark-submit will read when it starts the JVM)."""
    if jvm_running:
        from pyspark import SparkConf

        return dict(SparkConf().getAll())
    return spark_defaults()


def _hide_static_settings_warnings() -> None:
    """PySpark starts a local Connect server with the builder's settings, then sets them all again
    on the Connect session, where the static ones fail with a UserWarning each although the server
    took them; colsem's two would read as if colsem were not loaded."""
    warnings.filterwarnings(
        "ignore",
        message=r"Failed to set spark\.(jars|sql\.extensions) to ",
        category=UserWarning,
        module=r"pyspark\.sql\.connect\.conf",
    )


def configure(
    builder: SparkSession.Builder, conf: Mapping[str, str] | None = None
) -> SparkSession.Builder:
    """Add colsem to a ``SparkSession.builder`` and return it.

    Appends the bundled jar to ``spark.jars`` and ``io.colsem.ColsemExtensions`` to
    ``spark.sql.extensions``, keeping the values already set on the builder, in spark-defaults.conf,
    or (under spark-submit) in the running JVM. ``conf`` sets ``spark.colsem.*`` options.
    A builder for a Spark Connect server PySpark starts here (``remote("local[2]")``,
    ``spark.api.mode=connect``) gets them the same way: that server's JVM takes them. A builder
    for a running server (``sc://``) raises ColsemConnectError: its extensions are fixed.
    """
    check_pyspark_version()
    target = session_target(builder)
    if target is Target.REMOTE_CONNECT:
        raise ColsemConnectError(connect_instructions())
    if target is Target.LOCAL_CONNECT:
        _hide_static_settings_warnings()
    info = build_info()
    has_colsem = _running_jvm_has_colsem()
    jvm_running = has_colsem is not None
    from pyspark import SparkContext

    if SparkContext._active_spark_context is not None and not has_colsem:
        raise ColsemError(
            "A SparkContext is already running without colsem's jar on its classpath, and a "
            "running JVM cannot load it: call colsem.configure(builder) before the first "
            "SparkSession is created (or stop the running one)."
        )
    if jvm_running and not has_colsem:
        raise ColsemError(
            "This Python was started by spark-submit, whose JVM did not get colsem's jar. Pass "
            f"`--jars {jar_path()}` or `--packages {info.maven_coordinate}` to spark-submit."
        )
    existing = {
        **_settings_below_builder(jvm_running),
        **{k: str(v) for k, v in builder._options.items()},
    }
    group_artifact = info.maven_coordinate.rsplit(":", 1)[0] + ":"
    packages = existing.get(PACKAGES_KEY, "").split(",")
    if not has_colsem and not any(p.strip().startswith(group_artifact) for p in packages):
        builder.config(JARS_KEY, merge_list(existing.get(JARS_KEY), jar_path()))
    builder.config(EXTENSIONS_KEY, merge_list(existing.get(EXTENSIONS_KEY), info.extension_class))
    for key, value in (conf or {}).items():
        builder.config(key, value)
    return builder


_warned: list[str] = []


def autoconfigure(builder: SparkSession.Builder) -> None:
    """What the import hook runs before every getOrCreate that may start a JVM: configure, never
    raise."""
    if (
        os.environ.get("COLSEM_AUTOREGISTER", "1").strip() == "0"
        or session_target(builder) is Target.REMOTE_CONNECT
    ):
        return
    from pyspark.sql import SparkSession

    if SparkSession._instantiatedSession is not None:
        return  # an existing session is returned; its extensions are fixed already
    try:
        configure(builder)
    except ColsemError as exc:
        if str(exc) not in _warned:
            _warned.append(str(exc))
            warnings.warn(
                f"colsem was not registered automatically: {exc} "
                "(set COLSEM_AUTOREGISTER=0 to silence this)",
                stacklevel=3,
            )
