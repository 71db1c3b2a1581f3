"""colsem against vanilla Spark, measured in the same run: `make bench` (`python -m bench`); the
command line in bench/cli.py, one module per benchmark family, the report in bench/report.py."""
