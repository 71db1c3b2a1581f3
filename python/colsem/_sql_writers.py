"""``colsem sql``'s writers of the last statement's result: the jdbc and json responses
(streamed), csv (streamed) and an aligned table (buffered)."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, TextIO

from ._respond import TypeSystem, loads, respond_iter, response_pieces

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

OutputFormat = Literal["table", "jdbc", "json", "csv"]
OUTPUT_FORMATS = ("table", "jdbc", "json", "csv")


def write_result(
    df: DataFrame, format: OutputFormat, types: TypeSystem, fetch_size: int, out: TextIO
) -> None:
    """``df`` in the output ``format`` to ``out``."""
    if format == "jdbc" or format == "json":
        for piece in respond_iter(df, format, types, fetch_size=fetch_size):
            out.write(piece)
        out.write("\n")
    elif format == "csv":
        write_csv(df, out, fetch_size)
    else:
        write_table(df, out, fetch_size)


def _cell(value: Any) -> str:
    """A table or csv cell: text as is, NULL for None, JSON text for everything else."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return value
    return _json_text(value)


def _json_text(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, Decimal)):
        return str(value)
    if isinstance(value, str):
        import json

        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(_json_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_json_text(k)}:{_json_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _rows(df: DataFrame, fetch_size: int) -> Iterator[tuple[str, Any]]:
    """("schema", names) then every row as a list of Python values."""
    for kind, payload in response_pieces(df, "jdbc", "spark", "null", fetch_size):
        if kind == "head":
            yield "schema", [c["name"] for c in payload]
        elif kind == "rows":
            for text in payload:
                yield "row", loads(text)


def write_table(df: DataFrame, out: TextIO, fetch_size: int) -> None:
    names: list[str] = []
    cells: list[list[str]] = []
    for kind, payload in _rows(df, fetch_size):
        if kind == "schema":
            names = payload
        else:
            cells.append([_cell(v) for v in payload])
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out.write(rule + "\n")
    out.write("|" + "|".join(f" {n.ljust(w)} " for n, w in zip(names, widths)) + "|\n")
    out.write(rule + "\n")
    for row in cells:
        out.write("|" + "|".join(f" {c.ljust(w)} " for c, w in zip(row, widths)) + "|\n")
    if cells:
        out.write(rule + "\n")
    out.write(f"({len(cells)} row{'' if len(cells) == 1 else 's'})\n")


def write_csv(df: DataFrame, out: TextIO, fetch_size: int) -> None:
    writer = csv.writer(out, lineterminator="\n")
    for kind, payload in _rows(df, fetch_size):
        if kind == "schema":
            writer.writerow(payload)
        else:
            writer.writerow(["" if v is None else _cell(v) for v in payload])
