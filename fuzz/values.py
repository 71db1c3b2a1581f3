"""One canonical text per value, shared by the Spark workers and DuckDB, so rows compare as
strings. Doubles keep 12 significant digits (-0.0 is 0)."""

from __future__ import annotations

import datetime
import json
import math
from decimal import Decimal
from typing import Any


def canon(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if v == 0:
            return "0"
        return f"{v:.12g}"
    if isinstance(v, Decimal):
        return canon(float(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, datetime.datetime):
        return v.isoformat()
    if isinstance(v, datetime.date):
        return "DATE " + v.isoformat()
    if hasattr(v, "asDict"):  # a Spark Row (struct)
        return "{" + ",".join(f"{k}:{canon(x)}" for k, x in v.asDict().items()) + "}"
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{canon(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(canon(x) for x in v) + "]"
    return str(v)


def canon_row(row: Any) -> list[str]:
    return [canon(v) for v in row]
