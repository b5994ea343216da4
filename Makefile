# Motorcycle-parts shop. `make help` lists the targets.
#
# Every install or build step leaves a stamp file and runs again only when
# its inputs are newer than the stamp, so a second `make setup` does nothing:
#   .venv/.installed                   <- requirements.txt (what running needs)
#   .venv/.installed-run               <- requirements-run.txt (make run's fake Stripe)
#   .venv/.installed-dev               <- requirements-dev.txt (test, lint and benchmark tools)
#   frontend/node_modules/.installed   <- frontend/package.json, package-lock.json (npm ci)
#   static/dist/manifest.json          <- frontend/src/**, templates, build.mjs, package.json
#   .env                               <- written once: DEBUG on, a new SECRET_KEY, SQLite

PYTHON ?= python3
PORT   ?= 8000
CLUSTER_PORT ?= 8080
ARGS   ?=

VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

# Unit tests (*.test.js) are not part of the build.
FRONTEND_SRC  := $(shell find frontend/src -not -name '*.test.*' 2>/dev/null)
# Tailwind scans the templates for class names: a template change can change the CSS.
TEMPLATES     := $(shell find templates */templates -name '*.html' 2>/dev/null)
FRONTEND_LOCK := $(wildcard frontend/package-lock.json)

.DEFAULT_GOAL := help
.PHONY: help setup run test test-fast test-sqlite lint fmt bench clean
.PHONY: cluster
.PHONY: soak

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: $(VENV)/.installed static/dist/manifest.json .env ## Install what running needs, build the front end, write .env (only what changed)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.installed-run: requirements-run.txt $(VENV)/.installed
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-run.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt requirements-run.txt $(VENV)/.installed
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

# The development checkout's settings (git-ignored; the real environment wins over it).
.env:
	@printf '%s\n' \
		'# Written by `make setup` for this development checkout; never used in production.' \
		'# A variable set in the environment wins over this file. Delete it to get a new one.' \
		'DEBUG=1' \
		"SECRET_KEY=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
		'DATABASE_URL=sqlite:///db.sqlite3' > $@
	@echo "Wrote .env (DEBUG=1, a new SECRET_KEY, SQLite in db.sqlite3)"

# `npm ci`: exactly the committed lock file (complete, with every platform's optional
# packages), which it never rewrites; a lock file out of step with package.json stops it.
frontend/node_modules/.installed: frontend/package.json $(FRONTEND_LOCK)
	cd frontend && npm ci --no-audit --no-fund
	touch $@

static/dist/manifest.json: $(FRONTEND_SRC) $(TEMPLATES) frontend/build.mjs frontend/package.json frontend/node_modules/.installed
	cd frontend && npm run build

# scripts/run.py: migrate, seed when empty, the fake Stripe in development (DEBUG on, no keys),
# runserver with SITE_URL on PORT, then the demo accounts, printed last.
run: setup $(VENV)/.installed-run ## Migrate, seed demo data if empty, serve on 127.0.0.1:PORT (8000; settings from .env; a fake Stripe in development)
	$(PY) -m scripts.run --port $(PORT)

# The cluster's run folder: nginx.conf, cluster.env (honcho's environment), logs, pid files.
CLUSTER_RUN ?= $(CURDIR)/.cluster

cluster: setup $(VENV)/.installed-dev ## nginx (127.0.0.1:CLUSTER_PORT, 8080) before two gunicorn app servers on PostgreSQL + Redis (honcho)
	$(PY) scripts/cluster.py prepare --run-dir $(CLUSTER_RUN) --port $(CLUSTER_PORT)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho -f deploy/Procfile.cluster -e $(CLUSTER_RUN)/cluster.env start

# The tests' environment (DATABASE_URL, REDIS_URL, TEST_FORBID_SKIPS, ...) is set in one place:
# pyproject.toml's [tool.pytest.ini_options] env, where the real environment (or `make test
# VAR=...`) wins. `-p tests.machine` runs scripts/test-machine.sh with it first: chromium and
# nginx installed, PostgreSQL and Redis started when missing. A skipped test fails the run
# (TEST_FORBID_SKIPS=0 allows skips).
test: setup $(VENV)/.installed-dev ## Front-end unit tests (vitest), then every test on PostgreSQL and Redis (pytest arguments: ARGS="...")
	cd frontend && npm test
	$(BIN)/pytest -p tests.machine $(ARGS)

# The fast loop must stay under 2 minutes: it prints its wall time last ("make test-fast: 97 s";
# a recipe is expanded as it starts, so the $(shell date) below is that moment). Two
# pytest-xdist workers, each with its own test database (pytest-django's test_<name>_gw0, _gw1)
# and Redis database (REDIS_URL's and the next: tests/xdist_workers.py); ARGS="-n 0" runs one.
test-fast: setup $(VENV)/.installed-dev ## The same without the browser (e2e) and slow tests, on 2 workers: the loop while coding, under 2 minutes
	cd frontend && npm test
	$(BIN)/pytest -p tests.machine -n 2 -m "not e2e and not slow" $(ARGS) || failed=1; \
		echo "make test-fast: $$(( $$(date +%s) - $(shell date +%s) )) s"; [ -z "$$failed" ]

# make run's database, SQLite: the fast tests and the browser journeys marked `sqlite` (cart,
# garage, checkout, payment) on a SQLite file (the tests use test_shop.sqlite3 beside it).
# The tests marked `postgres` cannot pass there (pyproject.toml says why; `make test` runs
# them); a skipped test fails this run too.
SQLITE_URL   ?= sqlite:///shop.sqlite3
SQLITE_TESTS := not postgres and not slow and (not e2e or sqlite)

test-sqlite: setup $(VENV)/.installed-dev ## The fast tests and the cart, garage and checkout browser journeys on SQLite, make run's database
	DATABASE_URL=$(SQLITE_URL) $(BIN)/pytest -p tests.machine -m "$(SQLITE_TESTS)" $(ARGS)

lint: $(VENV)/.installed-dev frontend/node_modules/.installed ## Check style, floors and the project's rules: ruff, lint-imports, scripts/lint_rules.py, Biome on frontend/, no import circles
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(PY) -m scripts.lint_rules
	cd frontend && npm run lint
	$(PY) -m scripts.lint_import_cycles

fmt: $(VENV)/.installed-dev frontend/node_modules/.installed ## Format the code and apply ruff's and Biome's safe fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	cd frontend && npm run fmt

BENCH_ARGS ?=

bench/node_modules/.installed: bench/package.json bench/package-lock.json
	cd bench && npm install --no-audit --no-fund
	touch $@

bench: setup $(VENV)/.installed-dev bench/node_modules/.installed ## Benchmark (gunicorn, PostgreSQL, Redis, wrk, Lighthouse) into bench/results.md
	@# Debian's wrk and Chromium (Lighthouse drives it); installed when missing (needs root).
	@command -v wrk >/dev/null && test -x /usr/bin/chromium || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk chromium; }
	$(PY) -m bench.bench $(BENCH_ARGS)

SOAK_USERS   ?= 50
SOAK_SECONDS ?= 60
SOAK_HOLD_SECONDS ?= 20
SOAK_RATE    ?= 10

soak: setup $(VENV)/.installed-dev ## Load run (locust): SOAK_USERS=50 shoppers, SOAK_SECONDS=60, gunicorn on PostgreSQL; 0 5xx, stock reconciles
	$(PY) -m bench.run_soak --users $(SOAK_USERS) --seconds $(SOAK_SECONDS) --rate $(SOAK_RATE) --hold-seconds $(SOAK_HOLD_SECONDS) --csv bench/out/soak

clean: ## Remove .venv, frontend/node_modules, static/dist and staticfiles (keeps .env and db.sqlite3)
	rm -rf $(VENV) frontend/node_modules static/dist staticfiles
