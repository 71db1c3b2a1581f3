"""The worker side: the SparkSession both harnesses build, and errors as answers."""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Dict, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def builder(mode: str, app: str, warehouse: str, master: str = "local[1]",
            conf: Optional[Dict[str, str]] = None) -> Any:
    """Small and steady: `master` (one core by default), 3 GB of driver memory, no UI; then
    `conf`; colsem.configure in mode `colsem` (mode `vanilla` never imports colsem)."""
    from pyspark.sql import SparkSession

    b = (SparkSession.builder.master(master).appName(f"{app}-{mode}")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.warehouse.dir", warehouse)
         # Spark's parser keeps an ANTLR DFA cache that grows with every distinct SQL text:
         # after 8,000 queries it held 350 MB of a 1 GB heap (1,700 full collections, the
         # run slowing from 4.4 to 1.6 queries/s). 3 GB keeps a 10,000-query run steady.
         .config("spark.driver.memory", "3g"))
    for k, v in (conf or {}).items():
        b = b.config(k, v)
    if mode == "colsem":
        import colsem

        colsem.configure(b)
    return b


def _condition(throwable: Any) -> Optional[str]:
    from golden import condition

    try:
        return condition(throwable) or None
    except Exception:  # not a SparkThrowable (StackOverflowError, ...)
        return None


def _state(throwable: Any) -> Optional[str]:
    try:
        return throwable.getSqlState()
    except Exception:
        return None


def error_of(exc: BaseException) -> Dict[str, Any]:
    """Class (the error condition, else the exception's class name), SQLSTATE and message. A JVM
    error without a condition whose cause has one (a task failure wrapping the real error)
    answers the cause's, as Spark's SQLQueryTestSuite does."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    cls, state, message = type(exc).__name__, None, str(exc)
    java = getattr(exc, "_origin", None) if isinstance(exc, PySparkException) else None
    if isinstance(exc, Py4JJavaError):
        java = exc.java_exception
    if java is not None:
        try:
            message = java.toString()
            cls = java.getClass().getName()
        except Exception:
            java = None
    if isinstance(exc, PySparkException) and java is None:
        cls = _condition(exc) or cls
        state = exc.getSqlState()
    elif java is not None:
        found = _condition(java)
        if found:
            cls, state = found, _state(java)
        else:
            cause, depth = java.getCause(), 0
            while cause is not None and depth < 5:
                found = _condition(cause)
                if found:
                    cls, state, message = found, _state(cause), cause.toString()
                    break
                cause, depth = cause.getCause(), depth + 1
    return {"class": cls, "state": state, "message": message[:800]}


def serve(handle: Callable[[Dict[str, Any]], Dict[str, Any]]) -> None:
    """Answers each request (a JSON line on stdin) with handle(request), a JSON line on stdout
    carrying the request's id, until stdin ends."""
    for line in sys.stdin:
        request = json.loads(line)
        answer = handle(request)
        answer["id"] = request.get("id")
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def run(main: Callable[[], None]) -> None:
    """A worker's entry: a failure before or between requests ends it with its traceback in the log."""
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
