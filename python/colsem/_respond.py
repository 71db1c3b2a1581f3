"""Typed query responses: a DataFrame as an OpenSearch-SQL-style ``jdbc`` or ``json`` document.

The schema comes from the analyzed plan (``df.schema``), never from the data, so an all-NULL column
or an empty result still has its types. Values are rendered to JSON text inside Spark (Spark's own
JSON generator, ``to_json``), one string per row, so Python only splices text: the same code serves
a 3-row answer and a 10M-row stream. Which output columns come from a MAP or VARIANT lookup, and
whether the key or path was present, is decided where Spark analyzes the query, from the analyzed
plan, by the table function ``colsem_with_presence`` (``io.colsem.respond.PresenceTableFunction``):
plain SQL, so classic and Spark Connect sessions take the same path. Python never re-resolves
anything.

Document layout (keys in this order; ``total`` comes after the rows so a stream can count them)::

    {"schema": [{"name": "age", "type": "integer"}, ...],
     "datarows": [[31, 1], ...],            # jdbc: one array per row, in schema order
     "total": 3, "size": 3, "status": 200}

``format="json"`` has the same keys; each row is an object ``{"name": value, ...}`` from which a
MISSING value (an absent map key or variant path) is left out, while a NULL value is ``null``.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, get_args

from ._jars import ColsemError

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame
    from pyspark.sql.types import DataType

# The options' values: typed for checked callers, checked at run time for the others (_check).
Format = Literal["jdbc", "json"]
TypeSystem = Literal["spark", "opensearch"]
MissingPolicy = Literal["omit", "null"]
FORMATS: tuple[Format, ...] = get_args(Format)
TYPE_SYSTEMS: tuple[TypeSystem, ...] = get_args(TypeSystem)
MISSING_POLICIES: tuple[MissingPolicy, ...] = get_args(MissingPolicy)

# Lossless text for the types whose default JSON rendering is lossy or not ISO-8601: microseconds
# and the session time zone's offset for TIMESTAMP, microseconds for TIMESTAMP_NTZ. Nested structs
# keep their NULL fields (Spark drops them by default).
JSON_OPTIONS = {
    "timestampFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX",
    "timestampNTZFormat": "yyyy-MM-dd'T'HH:mm:ss.SSSSSS",
    "ignoreNullFields": "false",
}

# OpenSearch SQL's type names (the `type` of a jdbc schema entry) for Spark's types.
_OPENSEARCH_ATOMIC = {
    "boolean": "boolean",
    "byte": "byte",
    "short": "short",
    "integer": "integer",
    "long": "long",
    "float": "float",
    "double": "double",
    "decimal": "double",
    "string": "keyword",
    "char": "keyword",
    "varchar": "keyword",
    "binary": "binary",
    "date": "date",
    "timestamp": "timestamp",
    "timestamp_ntz": "timestamp",
    "void": "undefined",
    "variant": "object",
    "calendarinterval": "interval",
    "interval": "interval",
}


class ColsemResponseError(ColsemError):
    """A response cannot be built as asked; the message says why and what to do."""


def type_name(data_type: DataType, types: TypeSystem = "spark") -> str:
    """The ``type`` of a schema entry: Spark's type names (``integer``, ``long``,
    ``decimal(10,2)``, ``array<string>``, ``struct<a:integer>``) or OpenSearch SQL's (``integer``,
    ``long``, ``double``, ``keyword``, ``timestamp``, ``object``, ``nested``)."""
    from pyspark.sql import types as T

    if types not in TYPE_SYSTEMS:
        raise ColsemResponseError(f"types={types!r} is not one of {', '.join(TYPE_SYSTEMS)}.")
    if types == "opensearch":
        if isinstance(data_type, T.ArrayType):
            return "nested"
        if isinstance(data_type, (T.StructType, T.MapType)):
            return "object"
        base = _spark_atomic_name(data_type).split("(")[0].split(" ")[0]
        try:
            return _OPENSEARCH_ATOMIC[base]
        except KeyError:
            raise ColsemResponseError(
                f"No OpenSearch type for Spark type {data_type.simpleString()}; use types='spark'."
            ) from None
    if isinstance(data_type, T.ArrayType):
        return f"array<{type_name(data_type.elementType)}>"
    if isinstance(data_type, T.MapType):
        return f"map<{type_name(data_type.keyType)},{type_name(data_type.valueType)}>"
    if isinstance(data_type, T.StructType):
        return (
            "struct<"
            + ",".join(f"{f.name}:{type_name(f.dataType)}" for f in data_type.fields)
            + ">"
        )
    return _spark_atomic_name(data_type)


def _spark_atomic_name(data_type: DataType) -> str:
    from pyspark.sql import types as T

    if isinstance(
        data_type,
        (
            T.DecimalType,
            T.CharType,
            T.VarcharType,
            T.DayTimeIntervalType,
            T.YearMonthIntervalType,
            T.NullType,
        ),
    ):
        return data_type.simpleString()
    if isinstance(data_type, T.StringType):
        return "string"  # collations do not change the value's JSON type
    return data_type.typeName()


def schema_of(df: DataFrame, types: TypeSystem = "spark") -> list[dict[str, str]]:
    """``[{"name": ..., "type": ...}]`` from the DataFrame's analyzed schema."""
    try:
        fields = df.schema.fields
    except ValueError as exc:  # PySparkValueError: a type this PySpark has no class for
        # PySpark 3.5 has no CalendarIntervalType: such a result cannot reach Python at all.
        raise ColsemResponseError(
            f"PySpark cannot read this result's schema ({exc}). On Spark 3.5 a CALENDAR INTERVAL "
            "column (make_interval, interval arithmetic on dates) cannot be returned to Python: "
            "cast it to STRING, or use a DAY TO SECOND or YEAR TO MONTH interval."
        ) from exc
    return [{"name": f.name, "type": type_name(f.dataType, types)} for f in fields]


def _check(format: str, types: str, missing: str) -> None:
    if format not in FORMATS:
        raise ColsemResponseError(f"format={format!r} is not one of {', '.join(FORMATS)}.")
    if types not in TYPE_SYSTEMS:
        raise ColsemResponseError(f"types={types!r} is not one of {', '.join(TYPE_SYSTEMS)}.")
    if missing not in MISSING_POLICIES:
        raise ColsemResponseError(
            f"missing={missing!r} is not one of {', '.join(MISSING_POLICIES)}."
        )


# The table function colsem injects (PresenceTableFunction.scala) and its present columns' names:
# PRESENT_PREFIX + the ordinal of the column each is for.
WITH_PRESENCE = "colsem_with_presence"
PRESENT_PREFIX = "__colsem_present_"


def _no_colsem_error(exc: Exception) -> bool:
    """Spark's error for a table function that does not exist, naming colsem's. PySpark 3.5's
    Connect client gets no error class, only the message, which starts with it."""
    condition = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    missing = "UNRESOLVABLE_TABLE_VALUED_FUNCTION"
    return (
        (condition is not None and condition() == missing) or str(exc).startswith(f"[{missing}]")
    ) and f"`{WITH_PRESENCE}`" in str(exc)


def _is_connect(df: DataFrame) -> bool:
    return type(df).__module__.startswith("pyspark.sql.connect")


@contextlib.contextmanager
def _with_presence(df: DataFrame) -> Iterator[tuple[DataFrame, list[int]]]:
    """The DataFrame with its present columns appended, computed where Spark runs by
    ``colsem_with_presence``, and for each column of ``df`` its present column's ordinal (or -1).
    The result is good until the context exits."""
    from pyspark.errors import AnalysisException

    session = df.sparkSession
    query = f"SELECT * FROM {WITH_PRESENCE}(TABLE({{}}))"
    view = None
    try:
        try:
            if any(
                p.kind is inspect.Parameter.VAR_KEYWORD
                for p in inspect.signature(session.sql).parameters.values()
            ):
                # `{df}` names the DataFrame in the SQL text without a catalog entry of ours.
                result = session.sql(query.format("{df}"), df=df)
            else:
                # PySpark 3.5's Connect client has no DataFrame arguments: a temp view of our own,
                # which the lazily re-analyzed result reads until the context exits.
                view = f"_colsem_presence_{uuid.uuid4().hex}"
                df.createOrReplaceTempView(view)
                result = session.sql(query.format(view))
        except AnalysisException as exc:
            if not _no_colsem_error(exc):
                raise
            if _is_connect(df):
                where, fix = (
                    "on the Spark Connect server",
                    (
                        "Start the server with colsem's jar and spark.sql.extensions="
                        "io.colsem.ColsemExtensions (colsem.connect_instructions() shows how)"
                    ),
                )
            else:
                where, fix = (
                    "in this session",
                    "Create the session with colsem.configure(SparkSession.builder)",
                )
            raise ColsemResponseError(
                f"colsem is not active {where} (it has no {WITH_PRESENCE} table function), so "
                f"format='json' cannot tell MISSING values from NULL ones. {fix}, or pass "
                "missing='null' to report MISSING values as null."
            ) from None
        width = len(df.columns)
        present = [-1] * width
        for position, name in enumerate(result.columns[width:], start=width):
            present[int(name[len(PRESENT_PREFIX) :])] = position
        yield result, present
    finally:
        if view is not None:
            session.catalog.dropTempView(view)


@contextlib.contextmanager
def rendered_rows(
    df: DataFrame, format: Format = "jdbc", missing: MissingPolicy = "omit"
) -> Iterator[DataFrame]:
    """A one-column DataFrame (``row``, a string): each row of ``df`` as its JSON text, an array
    (``jdbc``) or an object without its MISSING values (``json``). Read it inside the context."""
    from pyspark.sql import functions as F

    _check(format, "spark", missing)
    fields = df.schema.fields
    if format == "json":
        names = [f.name for f in fields]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ColsemResponseError(
                "format='json' needs distinct column names, but "
                f"{', '.join(map(repr, duplicates))} "
                "appear more than once; give the columns distinct aliases (or use format='jdbc')."
            )
    with contextlib.ExitStack() as stack:
        present: list[int] = [-1] * len(fields)
        source = df
        if format == "json" and missing == "omit" and fields:
            source, present = stack.enter_context(_with_presence(df))
        width = len(source.columns)
        positional = [f"c{i}" for i in range(width)]
        source = source.toDF(*positional)
        values = [_value_json(F.col(positional[i]), f.dataType) for i, f in enumerate(fields)]
        if format == "jdbc":
            body = F.concat_ws(",", *values) if values else F.lit("")
            row = F.concat(F.lit("["), body, F.lit("]"))
        else:
            items = []
            for i, (f, value) in enumerate(zip(fields, values)):
                item = F.concat(F.lit(json.dumps(f.name, ensure_ascii=False) + ":"), value)
                if present[i] >= 0:
                    # NULL present (the other side of an outer join) keeps the key: only an absent
                    # key or path is MISSING.
                    item = F.when(
                        F.col(positional[present[i]]) == F.lit(False), F.lit(None)
                    ).otherwise(item)
                items.append(item)
            body = F.concat_ws(",", *items) if items else F.lit("")
            row = F.concat(F.lit("{"), body, F.lit("}"))
        yield source.select(row.alias("row"))


def _value_json(column: Column, data_type: DataType) -> Column:
    """JSON text of one value. ``to_json(array(v))`` is ``[<v as JSON>]`` for every type Spark can
    write as JSON; the brackets are cut off. Spark writes a FLOAT inside JSON as the double it
    widens to (1.1 -> 1.100000023841858) and a decimal with Java's BigDecimal text (1.0E-7); a
    top-level FLOAT or DECIMAL keeps Spark's own text of it (1.1, 0.00000010)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if isinstance(data_type, T.NullType):
        return F.lit("null")
    text = F.to_json(F.array(column), JSON_OPTIONS)
    value = text.substr(F.lit(2), F.length(text) - F.lit(2))
    if isinstance(data_type, T.DecimalType):
        # Spark's text of a decimal is plain digits with its scale (0.00000010), a valid JSON
        # number; inside arrays, maps and structs the JSON writer may use an exponent (1.0E-7).
        return F.when(column.isNull(), F.lit("null")).otherwise(column.cast("string"))
    if isinstance(data_type, T.FloatType):
        finite = column.isNotNull() & ~F.isnan(column) & (F.abs(column) != F.lit(float("inf")))
        return F.when(finite, column.cast("string")).otherwise(value)
    return value


def response_pieces(
    df: DataFrame, format: Format, types: TypeSystem, missing: MissingPolicy, fetch_size: int
) -> Iterator[tuple[str, Any]]:
    """A response in pieces: ("head", text), ("rows", [row texts]) per batch of at most fetch_size
    rows, then ("tail", count). What `respond`, `respond_iter` and `colsem sql`'s jdbc writer
    (`_sql_writers`) assemble, each its own way."""
    if fetch_size < 1:
        raise ColsemResponseError(
            f"fetch_size must be a positive number of rows, got {fetch_size}."
        )
    _check(format, types, missing)
    schema = schema_of(df, types)
    with rendered_rows(df, format, missing) as rows:
        yield "head", schema
        batch: list[str] = []
        count = 0
        for r in rows.toLocalIterator():
            batch.append(r[0])
            if len(batch) == fetch_size:
                count += len(batch)
                yield "rows", batch
                batch = []
        count += len(batch)
        if batch:
            yield "rows", batch
    yield "tail", count


def respond_iter(
    df: DataFrame,
    format: Format = "jdbc",
    types: TypeSystem = "spark",
    fetch_size: int = 1000,
    missing: MissingPolicy = "omit",
) -> Iterator[str]:
    """The response document as JSON text, in pieces: the schema first, then one piece per
    ``fetch_size`` rows, then ``total``/``size``/``status``. Concatenated they are one JSON
    document.

    The rows come from ``toLocalIterator``: the driver JVM holds one partition at a time and Python
    at most one piece, so memory does not grow with the result; ``total`` is counted as the rows
    pass, so the query runs once."""
    first = True
    for kind, payload in response_pieces(df, format, types, missing, fetch_size):
        if kind == "head":
            yield (
                '{"schema":'
                + json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
                + ',"datarows":['
            )
        elif kind == "rows":
            yield ("" if first else ",") + ",".join(payload)
            first = False
        else:
            yield f'],"total":{payload},"size":{payload},"status":200}}'


def respond_text(
    df: DataFrame,
    format: Format = "jdbc",
    types: TypeSystem = "spark",
    missing: MissingPolicy = "omit",
) -> str:
    """The whole response document as one JSON string (see :func:`respond_iter`)."""
    return "".join(respond_iter(df, format, types, missing=missing))


def loads(text: str) -> Any:
    """Parse response JSON without rounding: numbers with a fraction or exponent become
    ``decimal.Decimal`` (exactly the digits Spark wrote), integers stay ``int``."""
    return json.loads(text, parse_float=Decimal)


def respond(
    df: DataFrame,
    format: Format = "jdbc",
    types: TypeSystem = "spark",
    missing: MissingPolicy = "omit",
    fetch_size: int | None = None,
) -> dict[str, Any]:
    """The response as a dict: ``{"schema", "datarows", "total", "size", "status"}``.

    ``format="jdbc"``: each row a list in schema order; NULL and MISSING are both ``None``.
    ``format="json"``: each row a dict; NULL is ``None`` and a MISSING value (absent map key or
    variant path) has no key. ``types``: ``"spark"`` or ``"opensearch"`` type names. Non-integer
    numbers are ``decimal.Decimal`` (lossless); dates and timestamps ISO-8601 strings; binary
    base64; structs and maps dicts; arrays lists. ``fetch_size`` rows are moved from Spark at a time
    (default: all at once with ``collect``)."""
    _check(format, types, missing)
    schema = schema_of(df, types)
    if fetch_size is None:
        with rendered_rows(df, format, missing) as rows:
            datarows = [loads(r[0]) for r in rows.collect()]
    else:
        datarows = []
        for kind, payload in response_pieces(df, format, types, missing, fetch_size):
            if kind == "rows":
                datarows.extend(loads(t) for t in payload)
    return {
        "schema": schema,
        "datarows": datarows,
        "total": len(datarows),
        "size": len(datarows),
        "status": 200,
    }
