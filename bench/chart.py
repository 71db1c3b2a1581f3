"""The chart of the lateral-alias chains (bench/results/lca_chain.png): chain length against
analysis time for colsem, native Spark, DuckDB and colsem's alias-free lists."""

from __future__ import annotations

from pathlib import Path


def draw_chain_chart(
    path: Path,
    colsem_s: dict[int, float],
    native_s: dict[int, float],
    duckdb_s: dict[int, float],
    free_s: dict[int, float],
) -> None:
    """Chain length (log) against analysis time (log) for colsem, native Spark and DuckDB, and
    colsem's alias-free list of as many items; a missing point is a failure, marked where the
    series stops."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, series, style in (
        ("colsem (parse + analysis)", colsem_s, "o-"),
        ("Spark native LCA (fails past 49 levels)", native_s, "s--"),
        ("DuckDB PREPARE (fails from 500: max_expression_depth)", duckdb_s, "^:"),
        ("colsem, as many items without lateral aliases", free_s, "d-."),
    ):
        points = sorted((n, t) for n, t in series.items() if t == t)
        if points:
            (line,) = ax.plot([n for n, _ in points], [t for _, t in points], style, label=label)
            failed = [n for n, t in series.items() if t != t and n > points[-1][0]]
            if failed:
                ax.plot([min(failed)], [points[-1][1]], "x", color=line.get_color(), markersize=10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("lateral aliases in the chain")
    ax.set_ylabel("seconds (median of processes, fastest run)")
    ax.set_title("Analysis time of a lateral-alias chain (x: first length that fails)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
