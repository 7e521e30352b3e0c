# Two commands on a fresh machine:  make run  ·  make test
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Python keeps its compiled modules (and pytest its rewritten tests) in __pycache__, as
# it does by default, even where the environment says not to: every test worker and
# every live site of the browser tests would compile the same sources again (the
# suite's collection alone: 4.7 s a process against 2.2 s).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run dev test test-scaleout serve-scaled setup serving built engine check pytest gettext-package system-packages messages offline axe bench bench-load bench-check bench-offline bench-offline-engine bench-ratings clean

## make run: serve the site as players get it on http://127.0.0.1:8000 as soon as it can
## (debug off, the site's own error pages; domino_site/local.py migrates and collects static
## files); the slow steps (the engine's C build, the offline game's files) are made meanwhile,
## then the server restarts once to use them (a page open on it reconnects)
run: serving
	$(BIN)/python -m domino_site.local -b $(HOST) -p $(PORT) --meanwhile '$(MAKE) -s built'

## make dev: the same with debug on, for developers (Django's technical error pages)
dev: serving
	$(BIN)/python -m domino_site.local --dev -b $(HOST) -p $(PORT) --meanwhile '$(MAKE) -s built'

## make test: set up, then lint, type-check and run the whole suite (browser tests included)
test: setup check pytest

# What serving needs (the runtime's packages, the translations); what only makes it
# faster or adds the offline game (built); everything, with the test and lint tools (setup).
serving: $(VENV)/.installed messages
built: engine offline
setup: $(VENV)/.installed-dev system-packages serving built axe

# The virtualenv, its packages installed again only when pyproject.toml changes: the
# runtime's, then the engine's build tools (mypyc), or the test and lint tools.
$(VENV)/.installed: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed (Python 3.11)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	touch $@
$(VENV)/.installed-build: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[build]'
	touch $@
$(VENV)/.installed-dev: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-build

# The engine's hot modules compiled to C by mypyc (tools/build_engine.py: the rules' loop
# and the hard bot, some three times as fast), again whenever a source of the engine
# changed; until then games/engine/native.py runs the sources.
ENGINE_SOURCES := $(shell find games/engine -name '*.py')
engine: games/engine/native.sha256
games/engine/native.sha256: $(VENV)/.installed-build $(ENGINE_SOURCES) tools/build_engine.py
	@$(BIN)/python tools/build_engine.py >/dev/null

# Translations are compiled from locale/*/LC_MESSAGES/django.po by gettext's msgfmt, as
# `manage.py compilemessages` runs it (without starting Django and walking the tree:
# seconds of make run's first page), again only when a .po changed.
MO_FILES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
messages: $(MO_FILES)
$(MO_FILES): %.mo: %.po | gettext-package
	@msgfmt --check-format -o $@ $<

# The offline game's files (vendor/static, git-ignored): the pinned Pyodide, fetched once
# with its integrity checked, and the engine's zip, built again only when a source changed.
offline: $(VENV)/.installed messages
	@$(BIN)/python tools/fetch_pyodide.py
	@$(BIN)/python tools/build_offline.py >/dev/null

# The accessibility checker the browser tests run on every page (vendor/test, git-ignored):
# the pinned axe-core from npm, fetched once with its integrity checked, never from a CDN.
axe: $(VENV)/.installed
	@$(BIN)/python tools/fetch_axe.py

# Debian packages: gettext's msgfmt (the translations: make run and make test) and
# Chromium's headless shell (the browser tests: make test only; half the CPU of the
# whole browser run headless).  Run as root, the set-up installs them.
install-debian = \
  if [ "$$(id -u)" = 0 ]; then \
    echo "installing: $(1)"; \
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null); \
  else \
    echo "please install with your package manager: $(1)"; $(2) \
  fi
gettext-package:
	@command -v msgfmt >/dev/null || { $(call install-debian,gettext,exit 1;) }
system-packages: gettext-package
	@[ -x /usr/bin/chromium-headless-shell ] || { $(call install-debian,chromium-headless-shell,) }

check:
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite runs on TEST_WORKERS processes (pytest-xdist), each with its own test database.
# Three on two cores: the browser tests mostly wait (on the computer's pace, on frames),
# and a third worker fills those waits (measured: 4 min 43 s against 6 min 17 s with two);
# a fourth gains nothing, the two cores being busy throughout.
TEST_WORKERS ?= 3
pytest:
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

## make test-scaleout: the site's suite again on PostgreSQL and Redis (services must be up)
SCALEOUT_DB    ?= postgres://postgres@127.0.0.1:5432/domino
SCALEOUT_REDIS ?= redis://127.0.0.1:6379/3
test-scaleout: setup
	DATABASE_URL=$(SCALEOUT_DB) REDIS_URL=$(SCALEOUT_REDIS) \
	  $(BIN)/python -m pytest tests/games tests/accounts tests/matchmaking tests/economy \
	    tests/league tests/ratings tests/site tests/deadlines tests/privacy tests/monitoring \
	    tests/realtime tests/perf -m "not browser" $(PYTEST_ARGS)

## make serve-scaled N=4: migrate PostgreSQL, then N daphne processes (ports 8001…) and the worker
N ?= 4
serve-scaled: setup
	DATABASE_URL=$${DATABASE_URL:-$(SCALEOUT_DB)} REDIS_URL=$${REDIS_URL:-$(SCALEOUT_REDIS)} \
	  $(BIN)/python -m domino_site.scaled --processes $(N)

## make bench: the speed benchmarks (figures in docs/performance.md)
bench: setup
	$(BIN)/python bench/engine.py

## make bench-load TABLES=100 (RAMP=1: 10, 25, 50 … tables until p99 > 150 ms; LOAD_ARGS=…):
## real players against one daphne on the embedded default (bench/load/, figures in docs/performance.md)
TABLES ?= 100
bench-load: setup
	$(BIN)/python -m bench.load $(if $(RAMP),--ramp,--tables $(TABLES)) \
	  --json bench/results/load-$(if $(RAMP),ramp,$(TABLES)).json $(LOAD_ARGS)

## make bench-offline: the offline game's numbers in Chromium (figures in the README)
bench-offline: setup
	$(BIN)/python bench/offline.py --json bench/results/offline.json

## make bench-offline-engine DEALS=1000: the engine under Pyodide (in Node) against this
## CPython, seeded deals of every table traced ply by ply (the figure in docs/offline.md)
DEALS ?= 1000
bench-offline-engine: setup
	$(BIN)/python bench/offline_engine.py --deals $(DEALS) --json bench/results/offline-engine.json

## make bench-ratings: a season of rated online play through the site's services
## (bench/ratings.py; figures in docs/ratings.md); RATINGS_ARGS="--accounts 60" for a quick one
bench-ratings: setup
	$(BIN)/python bench/ratings.py --json bench/results/ratings.json $(RATINGS_ARGS)

## make bench-check: the benchmarks' own tests (bench/tests; make test leaves them out)
bench-check: setup
	$(BIN)/python -m pytest bench/tests $(PYTEST_ARGS)

clean:
	$(if $(wildcard $(BIN)/python),$(BIN)/python tools/build_engine.py --clean)
	rm -rf $(VENV) staticfiles vendor
