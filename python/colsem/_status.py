"""colsem.status(spark): what the colsem_status() table function says, as a dict."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def status(spark: SparkSession) -> dict[str, str]:
    """Whether colsem is active in ``spark`` (classic or Connect), its version, the Spark line it
    was built for and every ``spark.colsem.*`` setting. ``{"active": "false", ...}`` when the
    session has no colsem."""
    from pyspark.errors import AnalysisException

    try:
        rows = spark.sql("SELECT key, value FROM colsem_status()").collect()
    except AnalysisException as exc:
        # getCondition() since PySpark 4.0; getErrorClass() on 3.5.
        condition = (getattr(exc, "getCondition", None) or exc.getErrorClass)()
        if condition == "UNSUPPORTED_SINGLE_PASS_ANALYZER_FEATURE":
            return _status_on_the_jvm(spark, exc)
        if condition != "UNRESOLVABLE_TABLE_VALUED_FUNCTION":
            raise
        return {
            "active": "false",
            "reason": "colsem_status() does not exist in this session: colsem's extension was not "
            "applied (see the driver log for a COLSEM_INCOMPATIBLE_SPARK line, or call "
            "colsem.configure(builder) before the first session).",
        }
    return {row["key"]: row["value"] for row in rows}


def _status_on_the_jvm(spark: SparkSession, refused: Exception) -> dict[str, str]:
    """The same rows straight from the driver's JVM, where Spark's forced single-pass analyzer
    refuses the table function (it supports none and has no fall-back). A Spark Connect client
    has no JVM to ask: it gets Spark's error."""
    jvm = getattr(spark, "_jvm", None)
    if jvm is None:
        raise refused
    rows = jvm.io.colsem.status.StatusTableFunction.rowsOf(spark._jsparkSession)
    return {str(k): str(rows[k]) for k in rows.keySet()}
