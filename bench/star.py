"""Star: analysis of `SELECT *` on an N-column parquet table (N = 100, 1,000, 2,000, 5,000) whose
every tenth column is tagged hidden: default settings, and with spark.colsem.star.exclude=
TAGGED,PATTERN hiding them (vanilla: the same query, every column)."""

from __future__ import annotations

from typing import Any

from bench.benchmark import Across, Process, Row, Settings, benchmark, timed

STAR_WIDTHS = (100, 1000, 2000, 5000)


def star_rows(settings: Settings) -> list[Row]:
    rows: list[Row] = []
    for n in STAR_WIDTHS:
        rows += [
            Across(f"star_{n}_s", f"analysis of SELECT * on {n:,} columns, default settings (s)"),
            Across(
                f"star_{n}_hiding_s",
                f"analysis of SELECT * on {n:,} columns, colsem hiding "
                f"{n // 10:,} (TAGGED+PATTERN) vs vanilla * (s)",
            ),
        ]
    return rows


@benchmark(rows=star_rows)
def star(process: Process) -> dict[str, float]:
    """Analysis of SELECT * on wide catalog tables whose every tenth column is tagged hidden."""
    spark, iterations = process.spark, process.settings.iterations
    out: dict[str, float] = {}
    for n in STAR_WIDTHS:
        columns = ", ".join(f"{'_sys' if i % 10 == 0 else 'c'}{i} INT" for i in range(n))
        hidden = ",".join(f"_sys{i}" for i in range(0, n, 20))  # half of them by the property...
        spark.sql(
            f"CREATE TABLE bench_wide_{n} ({columns}) USING parquet "
            f"TBLPROPERTIES ('colsem.hidden_columns' = '{hidden}')"
        )
        query = f"SELECT * FROM bench_wide_{n}"

        def analyze() -> Any:
            return spark.sql(query)._jdf.queryExecution().analyzed()

        for _ in range(2):
            analyze()
        out[f"star_{n}_s"] = timed(analyze, max(iterations, 3))
        if process.mode == "colsem":  # ...the other half by the pattern
            spark.conf.set("spark.colsem.star.exclude", "TAGGED,PATTERN")
            spark.conf.set("spark.colsem.star.excludePattern", "_sys[0-9]*[13579]0")
            width = len(spark.sql(query).columns)
            if width != n - n // 10:
                raise SystemExit(f"SELECT * on {n} columns kept {width}, expected {n - n // 10}")
            analyze()
            out[f"star_{n}_hiding_s"] = timed(analyze, max(iterations, 3))
            spark.conf.unset("spark.colsem.star.exclude")
            spark.conf.unset("spark.colsem.star.excludePattern")
        else:
            out[f"star_{n}_hiding_s"] = out[f"star_{n}_s"]
    return out
