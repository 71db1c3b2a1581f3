"""The two places colsem reaches into Spark reflectively, because Spark offers no API for them,
checked on the running line (this file is in `make smoke`, so every Spark line runs it): the
optimizer's batches the invariant checks replay to name the rule that broke a schema
(PlanningInternals.optimizerBatches), and Spark's error-class registry colsem adds its conditions
to so that the analyzer's re-wrapped exceptions keep their SQLSTATE (ErrorConditionRegistry).
A Spark release that moves either fails here, not in a user's query."""

from __future__ import annotations

import pytest
from golden import condition
from pyspark.errors import AnalysisException


def test_the_optimizer_batches_are_readable(spark):
    internals = spark._jvm.org.apache.spark.sql.execution.colsem.PlanningInternals
    batches = internals.optimizerBatches(spark._jsparkSession)
    described = {}
    for i in range(batches.size()):
        batch = batches.apply(i)
        described[batch._1()] = (batch._2(), batch._3().size())
    # The batch the invariant goldens name, iterated to a fixed point, with Spark's rules in it.
    iterations, rules = described["Operator Optimization before Inferring Filters"]
    assert iterations > 1 and rules > 10
    assert sum(rules for _, rules in described.values()) > 100, described


def test_colsem_conditions_are_in_sparks_registry(spark):
    """The analyzer re-wraps an AnalysisException and looks its SQLSTATE up by class: without the
    registration a colsem condition's SQLSTATE would be null here."""
    reader = spark._jvm.org.apache.spark.SparkThrowableHelper.errorReader()
    assert reader.getSqlState("COLSEM_INVALID_CONF_VALUE") == "22022"
    session = spark.newSession()
    session.conf.set("spark.colsem.naming.dialect", "klingon")
    with pytest.raises(AnalysisException) as err:
        session.sql("SELECT 1").collect()
    assert condition(err.value) == "COLSEM_INVALID_CONF_VALUE"
    assert err.value.getSqlState() == "22022"


def test_the_stack_frames_star_hiding_reads_exist(spark):
    """DataFrameCalls and StarAuthors tell a DataFrame call and a nested analysis apart by the
    (class, method) frames on the stack: each must exist on the running line, or a call that
    carries columns over (`drop`, `na.fill`) would silently show hidden columns again."""
    jvm = spark._jvm
    frames = [
        str(f).split("#")
        for f in list(jvm.io.colsem.star.DataFrameCalls.framesForTest())
        + list(jvm.io.colsem.star.StarAuthors.framesForTest())
    ]
    found = []
    for cls, method in frames:
        try:
            methods = jvm.java.lang.Class.forName(cls).getMethods()
        except Exception:  # a class of another line (classic Dataset moved in 4.0)
            continue
        if any(m.getName() == method for m in methods):
            found.append(f"{cls.rsplit('.', 1)[1]}#{method}")
    assert sorted(set(found)) == [
        "Analyzer#executeAndCheck",
        "DataFrameNaFunctions#fill",
        "DataFrameNaFunctions#replace",
        "Dataset#drop",
        "Dataset#to",
    ]
