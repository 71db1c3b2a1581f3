"""The annotated golden file of lateral-alias shapes (tests/sql/inputs/lateral_alias_shapes.sql).

Whole-line comments before a statement annotate it:

    -- shape: <name>        starts a shape: the docs table has one row per shape, its first
                            statement being the example
    -- inlined: <SQL>       the statement with every lateral alias replaced by hand by what it
                            names; colsem must answer the statement exactly as vanilla Spark
                            answers this (names, types, rows)
    -- duckdb               DuckDB shares the syntax: its answer (or refusal) is recorded, and
                            where it answers, the rows must be colsem's

`SET`/`RESET spark.colsem.lateralAlias.extraScopes` statements give the statements after them
their scopes (ShapeStatement.scopes).

The golden test runs the file as any other; these annotations are for
tests/test_lateral_alias_shapes.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from golden import INPUTS, scopes_in_effect

SHAPES_FILE: Path = INPUTS / "lateral_alias_shapes.sql"


@dataclass
class ShapeStatement:
    sql: str
    shape: str | None
    inlined: str | None = None
    duckdb: bool = False
    first_of_shape: bool = False
    setup: bool = False
    scopes: str = ""  # spark.colsem.lateralAlias.extraScopes as the file sets it here


@dataclass
class _Pending:
    shape: str | None = None
    inlined: str | None = None
    duckdb: bool = False
    new_shape: bool = False
    lines: list[str] = field(default_factory=list)


def parse(text: str) -> list[ShapeStatement]:
    """Statements in order, each with its annotations (a statement ends with ';' at a line end)."""
    out: list[ShapeStatement] = []
    shape: str | None = None
    pending = _Pending()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("--"):
            body = stripped[2:].strip()
            if body.startswith("shape:"):
                shape = body[len("shape:") :].strip()
                pending.new_shape = True
            elif body.startswith("inlined:"):
                pending.inlined = body[len("inlined:") :].strip()
            elif body == "duckdb":
                pending.duckdb = True
            continue
        if not stripped:
            continue
        pending.lines.append(line)
        if re.search(r";[ \t]*$", line):
            sql = re.sub(r";[ \t]*$", "", "\n".join(pending.lines)).strip()
            setup = sql.upper().startswith(("CREATE", "SET", "RESET"))
            out.append(
                ShapeStatement(
                    sql,
                    None if setup else shape,
                    pending.inlined,
                    pending.duckdb,
                    pending.new_shape and not setup,
                    setup,
                )
            )
            pending = _Pending()
    for stmt, scopes in zip(out, scopes_in_effect([s.sql for s in out])):
        stmt.scopes = scopes
    return out


def shape_statements() -> list[ShapeStatement]:
    return parse(SHAPES_FILE.read_text())
