# colsem: two set-up commands on a fresh machine, `make demo` and `make test`.
# Everything else (Python venv, pyspark, sbt) is installed by the targets below.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VERSIONS := jvm/versions.properties
version = $(shell sed -n 's/^$(1)=//p' $(VERSIONS))
SPARK_VERSION := $(call version,spark.version)
SBT_VERSION := $(call version,sbt.version)
M2 ?= $(HOME)/.m2/repository
SBT_LAUNCHER := $(M2)/org/scala-sbt/sbt-launch/$(SBT_VERSION)/sbt-launch-$(SBT_VERSION).jar
SBT := java -Xss4m -Xmx2g -Dsbt.version=$(SBT_VERSION) -Dsbt.repository.config=jvm/sbt-repositories \
       -Dsbt.override.build.repos=true -Dsbt.supershell=false -Dsbt.log.noformat=true -Dsbt.ci=true -Dsbt.color=false \
       -jar $(SBT_LAUNCHER)
SOURCES := $(shell find jvm/src python -type f \( -name '*.scala' -o -name '*.py' -o -name '*.json' -o -name '*.pth' -o -name '*Provider' \) 2>/dev/null) $(VERSIONS) pyproject.toml
PYTEST_ARGS ?=

.PHONY: help java venv jar install wheel sbt sbt-test publish-local pytest test demo bench naming-golden fuzz clean

help:
	@echo "make demo           install everything, build the jar, run a demo of every feature"
	@echo "make test           ScalaTest (sbt) + publish to ~/.m2 + pytest end to end"
	@echo "make fuzz           differential fuzzer (FUZZ_ARGS=\"--seed N --count N --seconds N\")"
	@echo "make jar | wheel | publish-local | bench | naming-golden | clean"

java:
	@command -v java >/dev/null || { echo "Java 17 is required: apt-get install openjdk-17-jdk-headless (or set JAVA_HOME)"; exit 1; }
	@java -version 2>&1 | head -1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])' || { \
	  echo "Java 17+ is required, found: $$(java -version 2>&1 | head -1). apt-get install openjdk-17-jdk-headless"; exit 1; }

# The venv holds pyspark (whose jars compile the Scala sources), the build backend and test tools.
$(VENV)/.deps: pyproject.toml $(VERSIONS) | java
	@echo "==> creating $(VENV) with pyspark $(SPARK_VERSION) (first time: a few minutes)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --progress-bar off --upgrade pip
	$(PY) -m pip install --progress-bar off hatchling build "pyspark[connect]==$(SPARK_VERSION)" "pandas>=2.2,<3" "pytest>=8" "duckdb>=1.1"
	@touch $@

venv: $(VENV)/.deps

jar: venv
	$(PY) python/build_jar.py

# Installs the package the way a user's `pip install .` does (the build hook compiles the jar).
$(VENV)/.installed: $(VENV)/.deps $(SOURCES)
	@echo "==> pip install . (compiles the jar into the package)"
	$(PY) -m pip install --progress-bar off --no-build-isolation --no-deps --force-reinstall .
	@touch $@

install: $(VENV)/.installed

wheel: venv
	$(PY) -m build --wheel --no-isolation --outdir dist .

$(SBT_LAUNCHER):
	@echo "==> fetching sbt launcher $(SBT_VERSION) from Maven Central"
	mvn -q dependency:get -Dartifact=org.scala-sbt:sbt-launch:$(SBT_VERSION) -Dtransitive=false

sbt: $(SBT_LAUNCHER)

sbt-test: venv sbt
	@echo "==> sbt test (first run downloads sbt and ScalaTest)"
	$(SBT) test

publish-local: venv sbt
	@echo "==> sbt publishM2 -> $(M2)"
	$(SBT) publishM2

pytest: install
	@echo "==> pytest"
	$(PY) -m pytest $(PYTEST_ARGS)

test: install sbt
	@echo "==> sbt test publishM2 (first run downloads sbt and ScalaTest)"
	$(SBT) test publishM2
	@echo "==> pytest"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(PYTEST_ARGS)

demo: install
	$(PY) docs/demo.py

bench: install
	$(PY) bench/run.py $(BENCH_ARGS)

# Re-records the names real SQLite, PostgreSQL and MariaDB give the naming corpus
# (tests/naming/golden/*.json; `git diff` shows any change). Installs postgresql and mariadb-server
# with apt-get when absent (as root), runs each server on a private socket in a temporary
# directory and stops it. About 15 s once the packages are installed.
naming-golden:
	$(PYTHON) tests/naming/record_engine_names.py

# Random SQL, colsem vs vanilla Spark (another JVM), inlined lateral aliases, DuckDB; report in
# fuzz/results/latest.{json,md}; failures are shrunk into tests/sql/inputs/fuzz_regressions.sql.
FUZZ_ARGS ?= --seed 1 --count 10000 --seconds 3600
fuzz: install
	$(PY) -m fuzz --save-regressions $(FUZZ_ARGS)

clean:
	rm -rf build dist target project/target project/project python/colsem/jars $(VENV)/.installed
