"""``colsem`` command: where the jar is, its Maven coordinate, a session's status, and
``colsem sql`` (run SQL on a local session with colsem active, or on a Spark Connect server running
colsem, and print a typed response)."""

from __future__ import annotations

import argparse
import json
import sys

from . import _jars, build_info, jar_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="colsem", description="colsem: column semantics for Spark SQL"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("jar", "print the path of the jar for the installed pyspark (for --jars / spark.jars)"),
        ("coordinate", "print the Maven coordinate of that jar (for --packages)"),
    ):
        sub.add_parser(name, help=help_text).add_argument(
            "--pyspark",
            metavar="VERSION",
            help="for this pyspark version instead of the installed one",
        )
    sub.add_parser(
        "info",
        help="print the bundled jars (one per Spark line) and which one the "
        "installed pyspark gets, as JSON",
    )
    sub.add_parser("status", help="start a local session and print colsem_status() as JSON")
    from . import _cli_sql

    _cli_sql.add_arguments(
        sub.add_parser(
            "sql",
            help="run SQL on a local session with colsem (or a Spark Connect server running it, "
            "--remote) and print a jdbc/json/table/csv response",
            description=_cli_sql.__doc__,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
    )
    args = parser.parse_args(argv)
    if args.command == "sql":
        return _cli_sql.run(args)
    try:
        if args.command == "jar":
            print(jar_path(args.pyspark))
            return 0
        if args.command == "coordinate":
            print(build_info(args.pyspark).maven_coordinate)
            return 0
    except _jars.UnsupportedSparkVersion as exc:
        print(f"colsem: {exc}", file=sys.stderr)
        return 2
    if args.command == "info":
        try:
            running: str | None = _jars.running_pyspark_version()
        except _jars.UnsupportedSparkVersion:  # no pyspark installed
            running = None
        selected = _jars.build_for(running) if running else None
        print(
            json.dumps(
                {
                    "version": _jars.package_version(),
                    "pyspark_supported": _jars.pyspark_supported(),
                    "installed_pyspark": running,
                    "selected_jar": selected.jar if selected else None,
                    "jars": [vars(b) for b in _jars.builds()],
                },
                indent=2,
            )
        )
    else:
        from pyspark.sql import SparkSession

        from . import configure, status

        spark = configure(
            SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
        ).getOrCreate()
        print(json.dumps(status(spark), indent=2))
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
