# colsem: two set-up commands on a fresh machine, `make demo` and `make test`.
# Everything else (Python venv, pyspark, sbt) is installed by the targets below.

SHELL := /bin/bash
PYTHON ?= python3
VERSIONS := jvm/versions.properties
version = $(shell sed -n 's/^$(subst .,\.,$(1))=//p' $(VERSIONS))
comma := ,
LINES := $(subst $(comma), ,$(call version,lines))
DEFAULT_LINE := $(call version,default.line)
# SPARK=<line> picks the Spark line of the venv, pytest, sbt-test and smoke (default.line: .venv;
# any other line: .venv-<line>, with that line's pyspark).
SPARK ?= $(DEFAULT_LINE)
ifeq ($(filter $(SPARK),$(LINES)),)
$(error SPARK=$(SPARK) is not one of the Spark lines in $(VERSIONS): $(LINES))
endif
VENV := $(if $(filter $(SPARK),$(DEFAULT_LINE)),.venv,.venv-$(SPARK))
PY := $(VENV)/bin/python
SPARK_VERSION := $(call version,line.$(SPARK).spark.version)
VENV_PINS := $(foreach pin,$(call version,line.$(SPARK).venv.pins),"$(pin)")
SBT_VERSION := $(call version,sbt.version)
# Where publish-local publishes (and the --packages test resolves from); M2=/tmp/m2 keeps it private.
M2 ?= $(HOME)/.m2/repository
SBT_LAUNCHER := $(HOME)/.m2/repository/org/scala-sbt/sbt-launch/$(SBT_VERSION)/sbt-launch-$(SBT_VERSION).jar
# COLSEM_PYTHON: the Python build.sbt runs buildtools/spark_jars.py with to find each line's Spark jars
# and buildtools/maven_bundle.py with for the POM it publishes.
# $(call sbt,<line>[,<JVM options>]): sbt for that line (build.sbt reads -Dcolsem.line).
sbt = COLSEM_PYTHON=$(abspath $(PY)) java -Dcolsem.line=$(1) $(2) -Dmaven.repo.local=$(M2) -Xss4m -Xmx2g -Dsbt.version=$(SBT_VERSION) -Dsbt.repository.config=jvm/sbt-repositories \
       -Dsbt.override.build.repos=true -Dsbt.supershell=false -Dsbt.log.noformat=true -Dsbt.ci=true -Dsbt.color=false \
       -jar $(SBT_LAUNCHER)
SOURCES := $(shell find jvm/src python buildtools -type f \( -name '*.scala' -o -name '*.py' -o -name '*.json' -o -name '*.pth' -o -name '*Provider' \) -not -path 'python/colsem/jars/*' 2>/dev/null) $(VERSIONS) jvm/project.properties jvm/compile.properties LICENSE NOTICE pyproject.toml
PYTEST_ARGS ?=
# The formatter, linter and type checker `make lint` runs, pinned so a new release's rules never
# fail a build that passed (settings in pyproject.toml's [tool.ruff] and [tool.mypy]).
LINT_TOOLS := "ruff==0.17.6" "mypy==2.4.1"
# pytest processes for `make test` and `make smoke` (pytest-xdist; each its own Spark JVM), a file
# per process at a time so module fixtures are made once; PYTEST_WORKERS=1 runs in this process.
# Each run ends with its slowest tests, so a CI log shows where the time went.
PYTEST_WORKERS ?= 2
XDIST := $(if $(filter-out 0 1,$(PYTEST_WORKERS)),-n $(PYTEST_WORKERS) --dist loadfile --durations=15)
# The smoke suite (`make smoke SPARK=<line>`, CI's run on the lines between 3.5 and the newest;
# `make dist-check` runs the same list on the installed wheel): tests/smoke_tests.txt, one pytest
# id a line, each quoted for the shell (ids hold brackets).
SMOKE_TESTS := $(foreach test,$(shell sed -e '/^\#/d' -e '/^$$/d' tests/smoke_tests.txt),'$(test)')
# The wide suite (`make wide SPARK=<line>`, CI's run on 4.0 and 4.2): every golden file (with the
# line's own results under tests/sql/results/<line>/) and the feature suites whose plans differ
# between lines' analyzers: lateral-alias shapes, star, naming, responses, invariants, and colsem
# on streams. The ways in and pipelines run on 3.5, 4.1 and 4.3 (`make test-line`, `make test`):
# the same Python code on every line, and the lines whose Connect and pipelines differ.
WIDE_TESTS := tests/test_spark_internals.py tests/test_golden.py tests/test_lateral_alias_shapes.py \
  tests/test_star.py tests/test_naming.py tests/test_respond.py tests/test_invariants.py \
  tests/test_streaming.py tests/test_star_matrix.py tests/test_single_pass.py

.PHONY: help java venv venv-run venv-test jar install install-all test-long test-line scalatest pytest-line tiers wheel dist dist-check sbt sbt-test publish-local publish-line pytest lint fmt check test smoke wide formats formats-venv demo bench naming-golden golden golden-single-pass fuzz peer clean

help:
	@echo "make demo           pyspark and colsem (this line's jar) into .venv, then a demo of every feature"
	@echo "make test           ScalaTest (sbt) + pytest end to end: every feature, way in and golden file"
	@echo "make test-long      the long-haul tier: corpus slice, TPC-DS, fuzz runs, soaks, cluster, every jar"
	@echo "make test-line      what differs between lines (CI's phases of the other lines)"
	@echo "make tiers          which tier runs each test (counts per file; no Spark started)"
	@echo "                    SPARK=<line> for another Spark line ($(LINES); default $(DEFAULT_LINE)), e.g."
	@echo "                    make test SPARK=3.5 | make pytest SPARK=4.0 | make sbt-test SPARK=3.5"
	@echo "make lint           ruff format --check, ruff check, mypy --strict on the package, scalafmt"
	@echo "                    and 100 columns on the Scala (seconds)"
	@echo "make fmt            rewrite the Scala sources with scalafmt (.scalafmt.conf)"
	@echo "make check          the fast loop: lint, then layers, plan drawings, harness units, golden files,"
	@echo "                    bad input (minutes)"
	@echo "make smoke SPARK=L  the smoke suite (three ways in + one golden file per feature) on line L"
	@echo "make wide SPARK=L   the smoke suite, every golden file and the lateral-alias shapes, star, naming,"
	@echo "                    responses and invariants suites on line L"
	@echo "make formats        star strategies on real Delta Lake and Iceberg tables (Spark $(FORMATS_LINE))"
	@echo "make golden         rewrite tests/sql/results and analyzer-results on SPARK's line (review the diff)"
	@echo "make golden-single-pass  the golden files with Spark's tentative single-pass mode on from the environment"
	@echo "make fuzz           differential fuzzer (FUZZ_ARGS=\"--seed N --count N --seconds N\")"
	@echo "make peer           Spark's own SQL test corpus, vanilla vs colsem (PEER_ARGS=\"--settings default\","
	@echo "                    \"--slice ci\", \"--files 'group-by*,window*'\"); report in peer/results/<line>.md"
	@echo "make dist           release artifacts in dist/: sdist, wheel, a Maven bundle per Spark line (docs/releasing.md)"
	@echo "make dist-check     make dist, then twine check, POMs, bundles, and the smoke suite on the wheel in a fresh venv"
	@echo "make jar | wheel | publish-local | bench | naming-golden | clean"

java:
	@command -v java >/dev/null || { echo "Java 17 is required: apt-get install openjdk-17-jdk-headless (or set JAVA_HOME)"; exit 1; }
	@java -version 2>&1 | head -1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])' || { \
	  echo "Java 17+ is required, found: $$(java -version 2>&1 | head -1). apt-get install openjdk-17-jdk-headless"; exit 1; }

# A venv's packages, in three layers, so each target installs only what it uses (each layer's list
# is recorded in $(VENV)/.deps-<layer>: a changed list reinstalls that layer, other edits of this
# file do not):
#   run   what `make demo` needs: the line's pyspark and the build backend colsem installs with;
#   test  what `make test` adds: pytest, xdist, Spark Connect's client packages, pandas, DuckDB
#         (the fuzzer's reference), pyyaml (what `spark-pipelines` needs, as pyspark[pipelines]
#         from 4.1 would install);
#   dev   the release, bench and lint tools (build, twine, matplotlib, the pinned linters).
RUN_REQUIREMENTS = "hatchling>=1.27" "pyspark==$(SPARK_VERSION)" $(VENV_PINS)
TEST_REQUIREMENTS = "pyspark[connect]==$(SPARK_VERSION)" "pandas>=2.2,<3" "pytest>=8" \
  "pytest-xdist>=3.5" "duckdb>=1.1" "pyyaml>=6" $(VENV_PINS)
DEV_REQUIREMENTS = build twine "matplotlib>=3.8" $(LINT_TOOLS)
define venv_layer
ifneq '$$(shell cat $(VENV)/.deps-$(1) 2>/dev/null)' '$$(strip $$($(2)))'
  $$(shell rm -f $(VENV)/.deps-$(1))
endif
endef
$(eval $(call venv_layer,run,RUN_REQUIREMENTS))
$(eval $(call venv_layer,test,TEST_REQUIREMENTS))
$(eval $(call venv_layer,dev,DEV_REQUIREMENTS))
$(VENV)/.deps-run: pyproject.toml $(VERSIONS) | java
	@echo "==> creating $(VENV) with pyspark $(SPARK_VERSION) (first time: a minute or more)"
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --progress-bar off --upgrade pip
	$(PY) -m pip install --progress-bar off $(RUN_REQUIREMENTS)
	@echo '$(strip $(RUN_REQUIREMENTS))' > $@
$(VENV)/.deps-test: $(VENV)/.deps-run
	@echo "==> test tools into $(VENV)"
	$(PY) -m pip install --progress-bar off $(TEST_REQUIREMENTS)
	@echo '$(strip $(TEST_REQUIREMENTS))' > $@
$(VENV)/.deps-dev: $(VENV)/.deps-run
	@echo "==> release, bench and lint tools into $(VENV)"
	$(PY) -m pip install --progress-bar off $(DEV_REQUIREMENTS)
	@echo '$(strip $(DEV_REQUIREMENTS))' > $@

venv-run: $(VENV)/.deps-run
venv-test: $(VENV)/.deps-test
venv: $(VENV)/.deps-run $(VENV)/.deps-test $(VENV)/.deps-dev

# Every line's jar into python/colsem/jars (JAR_ARGS="--line 4.3" for one line).
jar: venv-run
	$(PY) buildtools/build_jar.py $(JAR_ARGS)

# Installs the package the way a user's `pip install .` does (the build hook compiles the jars;
# each line's Spark jars come from the installed pyspark or ~/.cache/colsem). `install` compiles
# only the running line's jar (COLSEM_JAR_LINES, buildtools/hatch_hooks.py; jars of other lines built
# before stay in the package): what the demo and `make test` run. `install-all` compiles every
# line's, as a user's `pip install .` and a release do: what `make test-long` checks.
PIP_INSTALL_TREE = $(PY) -m pip install --progress-bar off --no-build-isolation --no-deps --force-reinstall .
$(VENV)/.installed-line: $(VENV)/.deps-run $(SOURCES)
	@echo "==> pip install . into $(VENV) (compiles the jar of Spark $(SPARK) into the package)"
	COLSEM_JAR_LINES=$(SPARK) $(PIP_INSTALL_TREE)
	@touch $@
$(VENV)/.installed-all: $(VENV)/.deps-run $(SOURCES)
	@echo "==> pip install . into $(VENV) (compiles the jars of lines $(LINES) into the package)"
	$(PIP_INSTALL_TREE)
	@touch $@ $(VENV)/.installed-line

install: $(VENV)/.installed-line
install-all: $(VENV)/.installed-all

wheel: venv
	$(PY) -m build --wheel --no-isolation --outdir dist .

# dist/: the sdist and the wheel for PyPI, and dist/maven, a Maven repository holding each
# line's bundle for Maven Central (jar, -sources, -javadoc, POM, .md5/.sha1), all of version
# colsem.version (buildtools/release.py; uploading them is docs/releasing.md).
dist: venv
	$(PY) buildtools/release.py build

# What a user meets: twine check --strict, every POM and bundle, then the smoke suite run in a
# fresh venv (build/dist-venv: pyspark from PyPI, colsem from dist/ only) on that installed wheel,
# with spark-submit --packages resolving from dist/maven.
dist-check: dist
	$(PY) buildtools/release.py check --workers $(PYTEST_WORKERS)

$(SBT_LAUNCHER):
	@echo "==> fetching sbt launcher $(SBT_VERSION) from Maven Central"
	mvn -q dependency:get -Dartifact=org.scala-sbt:sbt-launch:$(SBT_VERSION) -Dtransitive=false

sbt: $(SBT_LAUNCHER)

sbt-test: venv-run sbt
	@echo "==> sbt test on Spark $(SPARK) (first run downloads sbt and ScalaTest)"
	$(call sbt,$(SPARK)) test

# colsem-spark-<line>_<scala> for every line, each compiled by its own sbt run.
publish-local: venv-run sbt
	@for line in $(LINES); do \
	  echo "==> sbt publishM2 of Spark $$line -> $(M2)"; \
	  $(call sbt,$$line) publishM2 || exit 1; \
	done

# One line only: SPARK's.
publish-line: venv-run sbt
	@echo "==> sbt publishM2 of Spark $(SPARK) -> $(M2)"
	$(call sbt,$(SPARK)) publishM2

# The golden files' expected output (results and analyzed plans) rewritten from this line's run:
# the default line's files, or results/<line>/ where another line differs (tests/golden.py).
golden: venv-test install
	COLSEM_GOLDEN_REGENERATE=1 $(PY) -m pytest tests/test_golden.py -q -p no:cacheprovider

# Every golden file with Spark's tentative single-pass mode on from the environment, as a platform
# sets it (docs/versions.md, "The single-pass resolver"): a Spark release that changes the modes
# fails here, not on a user.
golden-single-pass: venv-test install
	@echo "==> golden files on Spark $(SPARK) with SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY=true"
	SPARK_SINGLE_PASS_ANALYZER_ENABLED_TENTATIVELY=true $(PY) -m pytest tests/test_golden.py -q -p no:cacheprovider $(PYTEST_ARGS)

pytest: venv-test install
	@echo "==> pytest on Spark $(SPARK) ($(VENV))"
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

# Formatting, lint and types of the Python (settings in pyproject.toml) and the Scala's formatting
# (scalafmt, .scalafmt.conf; no line over 100 columns); docs/development.md says how to fix a
# finding. Seconds, so first in `make check` and in CI.
lint: venv java
	@echo "==> ruff format --check, ruff check, mypy ($(VENV))"
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	@echo "==> scalafmt --list and 100 columns over the Scala sources (buildtools/scala_format.py)"
	$(PY) buildtools/scala_format.py --check

# Rewrites every Scala source with scalafmt (.scalafmt.conf's pinned version, from Maven Central).
fmt: venv java
	$(PY) buildtools/scala_format.py

# The fast loop while changing a rule: lint, then the import graph, the corpus harness's
# classification, every golden file and the bad-input errors, in one pytest process (one Spark
# session).
CHECK_TESTS := tests/test_layers.py tests/test_tree.py tests/test_drawings.py tests/test_peer.py tests/test_golden.py \
  tests/test_bad_input.py
check: lint venv-test install
	@echo "==> make check on Spark $(SPARK) ($(VENV))"
	$(PY) -m pytest -m "not corpus" $(CHECK_TESTS) $(PYTEST_ARGS)

# The tiers (docs/development.md, "Tiers"; `make tiers` lists which test runs where):
#   make test       every feature's behaviour on line SPARK: ScalaTest, then pytest without the
#                   long-haul tests (-m "not long");
#   make test-long  the long-haul tests (-m long): the corpus slice, TPC-DS against vanilla, fuzz
#                   runs, 10,000-alias chains, concurrency soaks, the multi-executor cluster,
#                   repeated `spark-pipelines` runs, the wheel of every line and its release checks;
#   make test-line  what differs between lines, for CI's phases of the lines other than the
#                   default: ScalaTest and pytest without the long tier and the line-independent
#                   tests (-m "not long and not once": the layer graph, drawings, harness units,
#                   make dry runs, which the default line's run checks once).
# CI (.ci/run) runs `make test`, the corpus slice and the other lines' tiers, and the table formats;
# the rest of the long tier is run by hand (docs/development.md, "CI"). No test is in no tier.
TIER_CORE := not long and not formats
TIER_LONG := long
TIER_LINE := not long and not once and not formats
# LINE_ALSO=<marker expression>: what else a line's run selects in the same pytest run (CI: 4.1's
# corpus slice, 3.5's sessions of the other Scala line).
LINE_ALSO ?=
LINE_SELECTION = $(if $(LINE_ALSO),($(TIER_LINE)) or ($(LINE_ALSO)),$(TIER_LINE))
# The files `make test-line` runs on a line other than the default one: the wide suite's, the
# checks that default settings stay vanilla's and that bad input and writes fail as they should,
# and the ways in that differ on that line (LINE_TESTS_<line>: 3.5's own
# registration and parser path through spark-submit, the Thrift server and `spark-sql`, its
# Connect server from Maven; pipelines' first line and its local Connect on 4.1). The default
# line's `make test` runs every file; the Python-only ones (`colsem sql`'s writers, the docs'
# response examples, the naming engines' names) are the same code on every line.
LINE_TESTS_3.5 := tests/test_ways_in.py tests/test_servers.py tests/test_connect_server.py \
  tests/test_version_matrix.py
LINE_TESTS_4.1 := tests/test_pipelines.py tests/test_connect_local.py tests/test_connect_server.py \
  tests/test_peer.py
LINE_TESTS = $(WIDE_TESTS) tests/test_conservative.py tests/test_data_safety.py tests/test_bad_input.py \
  tests/test_guards.py $(LINE_TESTS_$(SPARK))
# ScalaTest runs on the package's jar (build.sbt's colsem.testedJar: no second compile of the main
# sources), and that jar goes to the local Maven repository for `--packages`, as `make smoke` does.
PACKAGE_JAR = $$(ls python/colsem/jars/colsem-spark-$(SPARK)_*.jar)
define scalatest_on_the_package_jar
	@echo "==> sbt test on Spark $(SPARK), on the package's jar (first run downloads sbt and ScalaTest)"
	$(call sbt,$(SPARK),-Dcolsem.testedJar=$(PACKAGE_JAR)) test
	$(PY) buildtools/maven_bundle.py --line $(SPARK) --publish-m2 $(M2)
endef
test: venv-test install sbt
	$(scalatest_on_the_package_jar)
	@echo "==> pytest on Spark $(SPARK) ($(VENV)), tier: $(TIER_CORE)"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(XDIST) -m "$(TIER_CORE)" $(PYTEST_ARGS)

test-long: venv install-all
	$(PY) buildtools/maven_bundle.py --line $(SPARK) --publish-m2 $(M2)
	@echo "==> pytest on Spark $(SPARK) ($(VENV)), tier: $(TIER_LONG)"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(XDIST) -m "$(TIER_LONG)" $(PYTEST_ARGS)

# `make test-line` in its two halves (CI runs two lines' pytest halves side by side).
scalatest: venv-test install sbt
	$(scalatest_on_the_package_jar)
test-line: scalatest pytest-line
pytest-line: venv-test install
	@echo "==> pytest on Spark $(SPARK) ($(VENV)), tier: $(LINE_SELECTION)"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(XDIST) -m "$(LINE_SELECTION)" $(LINE_TESTS) $(PYTEST_ARGS)

# Which tier runs each test: pytest's collection of each tier on line SPARK, counted per file
# (no Spark started), then the totals. A test in no tier would be a test CI never runs.
tiers: venv-test install
	@$(PY) tests/tiers.py --core "$(TIER_CORE)" --long "$(TIER_LONG)" --line "$(TIER_LINE)" --line-files "$(LINE_TESTS)"

# The smoke suite on line SPARK: puts the jar the package carries, with its POM, into the local
# Maven repository (for --packages; sbt would compile the line again), then SMOKE_TESTS.
smoke: venv-test install
	$(PY) buildtools/maven_bundle.py --line $(SPARK) --publish-m2 $(M2)
	@echo "==> smoke suite on Spark $(SPARK) ($(VENV))"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(XDIST) $(SMOKE_TESTS) $(PYTEST_ARGS)

# The wide suite on line SPARK: as `smoke`, with WIDE_TESTS.
wide: venv-test install
	$(PY) buildtools/maven_bundle.py --line $(SPARK) --publish-m2 $(M2)
	@echo "==> wide suite on Spark $(SPARK) ($(VENV))"
	COLSEM_M2_REPO=$(M2) $(PY) -m pytest $(XDIST) $(WIDE_TESTS) $(PYTEST_ARGS)

# Real Delta Lake and Apache Iceberg tables (tests/test_table_formats.py), and colsem beside
# Apache DataFusion Comet (tests/test_comet.py), in .venv-formats: the
# formats line's pyspark at the version delta-spark accepts, delta-spark from PyPI; the Delta and
# Iceberg jars come from Maven Central (spark.jars.packages, cached in ~/.ivy2*), Comet's too (~/.m2).
# `formats-venv` makes the venv alone (CI makes it while another phase runs); `formats` installs the
# package into it and runs both files, one pytest process each (FORMATS_WORKERS).
FORMATS_LINE := $(call version,formats.line)
FORMATS_MAKE = $(MAKE) SPARK=$(FORMATS_LINE) VENV=.venv-formats SPARK_VERSION=$(call version,formats.pyspark.version) \
  VENV_PINS='"$(call version,formats.delta.pip)"'
FORMATS_WORKERS ?= 2
FORMATS_PACKAGES := $(call version,formats.delta.jar),$(call version,formats.iceberg.jar)
formats-venv:
	$(FORMATS_MAKE) venv-test
	@if [ "$$(cat .venv-formats/.packages 2>/dev/null)" != '$(FORMATS_PACKAGES)' ]; then \
	  echo "==> Delta's and Iceberg's jars into Ivy's cache once (the test processes then resolve them side by side)"; \
	  .venv-formats/bin/python -c "from pyspark.sql import SparkSession as S; S.builder.master('local[1]') \
	    .config('spark.ui.enabled', 'false').config('spark.jars.packages', '$(FORMATS_PACKAGES)').getOrCreate().stop()" \
	  && echo '$(FORMATS_PACKAGES)' > .venv-formats/.packages; fi
formats: formats-venv
	$(FORMATS_MAKE) install
	@echo "==> Delta Lake and Iceberg tables on Spark $(FORMATS_LINE) (.venv-formats)"
	.venv-formats/bin/python -m pytest $(if $(filter-out 0 1,$(FORMATS_WORKERS)),-n $(FORMATS_WORKERS) --dist loadgroup --durations=15) \
	  -m formats tests/test_table_formats.py tests/test_comet.py $(PYTEST_ARGS)

demo: venv-run install
	$(PY) docs/demo.py

bench: venv install
	$(PY) -m bench $(BENCH_ARGS)

# Re-records the names real SQLite, PostgreSQL and MariaDB give the naming corpus
# (tests/naming/golden/*.json; `git diff` shows any change). Installs postgresql and mariadb-server
# with apt-get when absent (as root), runs each server on a private socket in a temporary
# directory and stops it. About 15 s once the packages are installed.
naming-golden:
	$(PYTHON) tests/naming/record_engine_names.py

# Random SQL, colsem vs vanilla Spark (another JVM), inlined lateral aliases, DuckDB; report in
# fuzz/results/latest.{json,md}; failures are shrunk into tests/sql/inputs/fuzz_regressions.sql.
FUZZ_ARGS ?= --seed 1 --count 10000 --seconds 3600
fuzz: venv-test install
	$(PY) -m fuzz --save-regressions $(FUZZ_ARGS)

# Spark's own SQL test corpus (SQLQueryTestSuite's inputs, from the spark-sql test jar of the line's
# newest published release: line.<L>.corpus.version) statement by statement under vanilla Spark and
# under colsem, per setting; every difference in peer/results/<line>.{md,json} (docs/peer.md).
# A full run of one setting takes about 50 minutes on 2 cores; vanilla's outcomes are cached.
PEER_ARGS ?=
peer: venv-test install
	$(PY) -m peer $(PEER_ARGS)

clean:
	rm -rf build dist target project/target project/project python/colsem/jars .venv/.installed-* .venv-*/.installed-*
