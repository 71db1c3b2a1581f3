"""Shapes: the lateral-alias shapes native Spark refuses (docs/lateral-aliases.md, "Shapes":
GROUP BY ALL, ROLLUP, a window over an aggregate's alias, an alias in WHERE, in a correlated
subquery (both with spark.colsem.lateralAlias.extraScopes=WHERE,SUBQUERY), inside an aggregate):
analysis and a run over the shape rows, colsem as written against vanilla running the
hand-inlined query; in colsem's process both forms alternate, their answers asserted equal."""

from __future__ import annotations

from bench.benchmark import Across, InProcess, Process, Row, Settings, benchmark, timed

SHAPE_ROWS = 2_000_000  # input rows of the shape benchmarks
QUICK_SHAPE_ROWS = 100_000

# Each shape: (name, label, as written, hand-inlined); colsem runs it as written, vanilla Spark
# its hand-inlined form (the query a user writes without colsem). {rows} is the input's size.
LATERAL_SHAPES = [
    (
        "group_by_all",
        "GROUP BY ALL over items that use aliases",
        "SELECT id % 100 AS a, a % 7 AS b, sum(id) AS s FROM range({rows}) GROUP BY ALL",
        "SELECT id % 100 AS a, (id % 100) % 7 AS b, sum(id) AS s FROM range({rows}) GROUP BY ALL",
    ),
    (
        "rollup",
        "ROLLUP over aliases that use aliases",
        "SELECT id % 100 AS a, a % 7 AS b, sum(id) AS s, grouping_id(a, b) AS g FROM range({rows}) "
        "GROUP BY ROLLUP(a, b)",
        "SELECT id % 100 AS a, (id % 100) % 7 AS b, sum(id) AS s, grouping_id(id % 100, (id % 100) % 7) AS g "
        "FROM range({rows}) GROUP BY ROLLUP(id % 100, (id % 100) % 7)",
    ),
    (
        "window_over_aggregate",
        "window over an aggregate's alias (rank by total, share of total)",
        "SELECT id % 100 AS g, sum(id) AS total, rank() OVER (ORDER BY total DESC) AS r, "
        "total / sum(total) OVER () AS share FROM range({rows}) GROUP BY g",
        "SELECT id % 100 AS g, sum(id) AS total, rank() OVER (ORDER BY sum(id) DESC) AS r, "
        "sum(id) / sum(sum(id)) OVER () AS share FROM range({rows}) GROUP BY id % 100",
    ),
    (
        "where_alias",
        "select alias in WHERE",
        "SELECT count(*), sum(m) FROM (SELECT id * 3 AS t, t % 7 AS m FROM range({rows}) WHERE m > 2)",
        "SELECT count(*), sum(m) FROM (SELECT id * 3 AS t, (id * 3) % 7 AS m FROM range({rows}) "
        "WHERE ((id * 3) % 7) > 2)",
    ),
    (
        "correlated_subquery",
        "alias in a correlated scalar subquery",
        "SELECT count(*), sum(m) FROM (SELECT id % 1000 AS x, (SELECT max(d.id) FROM range(100) AS d "
        "WHERE d.id < x) AS m FROM range({rows}))",
        "SELECT count(*), sum(m) FROM (SELECT id % 1000 AS x, (SELECT max(d.id) FROM range(100) AS d "
        "WHERE d.id < (r.id % 1000)) AS m FROM range({rows}) AS r)",
    ),
    (
        "alias_in_aggregate",
        "alias inside an aggregate's argument",
        "SELECT id % 100 AS k, k * 2 AS x, sum(x) AS s, max(x + id) AS m FROM range({rows}) GROUP BY id % 100",
        "SELECT id % 100 AS k, (id % 100) * 2 AS x, sum((id % 100) * 2) AS s, max((id % 100) * 2 + id) AS m "
        "FROM range({rows}) GROUP BY id % 100",
    ),
]


def shape_rows(settings: Settings) -> list[Row]:
    rows: list[Row] = []
    for name, label, _, _ in LATERAL_SHAPES:
        rows += [
            Across(
                f"shape_{name}_analysis_s",
                f"{label}: analysis (s; vanilla runs the hand-inlined query)",
            ),
            Across(
                f"shape_{name}_runtime_s",
                f"{label}: run over {settings.shape_rows:,} rows (s; vanilla runs the "
                "hand-inlined query)",
            ),
        ]
    rows += [
        InProcess(
            f"shape_{name}_vs_inlined",
            f"colsem runtime, {label}: hand-inlined (left) vs as written (right) (s)",
            f"shape_{name}_inlined_runtime_s",
            f"shape_{name}_runtime_s",
        )
        for name, label, _, _ in LATERAL_SHAPES
    ]
    return rows


@benchmark(rows=shape_rows)
def shapes(process: Process) -> dict[str, float]:
    """Each shape's analysis and runtime: colsem as written, vanilla hand-inlined. In colsem's
    process both forms run, alternating, with equal results asserted (the in-process ratio); the
    WHERE and subquery shapes need their scopes turned on (spark.colsem.lateralAlias.extraScopes)."""
    spark, iterations, rows = (
        process.spark,
        process.settings.iterations,
        process.settings.shape_rows,
    )
    native = process.mode == "vanilla"
    out: dict[str, float] = {}
    if not native:
        spark.conf.set("spark.colsem.lateralAlias.extraScopes", "WHERE,SUBQUERY")
    for name, _, written, inlined in LATERAL_SHAPES:
        forms = {"inlined": inlined.format(rows=rows)}
        if not native:
            forms["written"] = written.format(rows=rows)
            answers = [sorted(map(tuple, spark.sql(q).collect()), key=repr) for q in forms.values()]
            if answers[0] != answers[1]:
                raise SystemExit(
                    f"lateral shape {name}: colsem's answer differs from the hand-inlined query's"
                )
        best: dict[str, dict[str, float]] = {
            f: {"analysis": float("inf"), "runtime": float("inf")} for f in forms
        }
        for _ in range(max(iterations, 2)):
            for form, query in forms.items():
                best[form]["analysis"] = min(
                    best[form]["analysis"],
                    timed(lambda: spark.sql(query)._jdf.queryExecution().analyzed(), 1),
                )
                best[form]["runtime"] = min(
                    best[form]["runtime"], timed(lambda: spark.sql(query).collect(), 1)
                )
        mine = best["inlined" if native else "written"]
        out[f"shape_{name}_analysis_s"] = mine["analysis"]
        out[f"shape_{name}_runtime_s"] = mine["runtime"]
        if not native:
            out[f"shape_{name}_inlined_runtime_s"] = best["inlined"]["runtime"]
    if not native:
        spark.conf.unset("spark.colsem.lateralAlias.extraScopes")
    return out
