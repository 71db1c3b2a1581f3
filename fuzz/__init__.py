"""Differential fuzzer for colsem: random SQL over small parquet tables, checked against vanilla
Spark (another JVM without colsem), the queries' hand-inlined forms, DuckDB, colsem's star
strategies and naming dialects. `make fuzz`; see docs/fuzzing.md."""
