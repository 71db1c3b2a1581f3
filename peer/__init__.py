"""Spark's own SQL test corpus (the inputs of SQLQueryTestSuite, from the spark-sql test jar on
Maven Central) run statement by statement under vanilla Spark and under colsem, every difference
reported. `make peer`; see docs/peer.md."""
