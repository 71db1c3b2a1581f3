"""``colsem`` command: where the jar is, its Maven coordinate, a session's status, and ``colsem sql``
(run SQL on a local session with colsem active and print a typed response)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from . import build_info, jar_path


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="colsem", description="colsem: column semantics for Spark SQL")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("jar", help="print the bundled jar's path (for --jars / spark.jars)")
    sub.add_parser("coordinate", help="print the Maven coordinate (for --packages)")
    sub.add_parser("info", help="print what the bundled jar was built for, as JSON")
    sub.add_parser("status", help="start a local session and print colsem_status() as JSON")
    from . import _cli_sql

    _cli_sql.add_arguments(sub.add_parser(
        "sql", help="run SQL on a local session with colsem and print a jdbc/json/table/csv response",
        description=_cli_sql.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter))
    args = parser.parse_args(argv)
    if args.command == "sql":
        return _cli_sql.run(args)
    if args.command == "jar":
        print(jar_path())
    elif args.command == "coordinate":
        print(build_info().maven_coordinate)
    elif args.command == "info":
        print(json.dumps(vars(build_info()), indent=2))
    else:
        from pyspark.sql import SparkSession

        from . import configure, status

        spark = configure(SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")).getOrCreate()
        print(json.dumps(status(spark), indent=2))
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
