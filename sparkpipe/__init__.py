"""A Spark JVM behind a pipe, shared by the differential fuzzer (fuzz/) and the Spark SQL corpus
run (peer/): the driver side (`client.Worker`: start, JSON-lines requests, timeouts, restart) and
the worker side (`session.builder`: the JVM settings both harnesses use; `session.error_of`: an
exception as class, SQLSTATE and message). A worker process in mode `vanilla` never imports
colsem and runs with COLSEM_AUTOREGISTER=0, so the extension is not loaded at all."""
