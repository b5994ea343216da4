# Motorcycle-parts shop. `make help` lists the targets.
#
# Every install or build step leaves a stamp file and runs again only when
# its inputs are newer than the stamp, so a second `make setup` does nothing:
#   .venv/.installed                   <- requirements.txt, requirements-dev.txt
#   frontend/node_modules/.installed   <- frontend/package.json, package-lock.json
#   static/dist/manifest.json          <- frontend/src/**, templates, build.mjs, package.json

PYTHON ?= python3
PORT   ?= 8000
CLUSTER_PORT ?= 8080
DEBUG  ?= 1
ARGS   ?=

VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

FRONTEND_SRC  := $(shell find frontend/src 2>/dev/null)
# Tailwind scans the templates for class names: a template change can change the CSS.
TEMPLATES     := $(shell find templates */templates -name '*.html' 2>/dev/null)
FRONTEND_LOCK := $(wildcard frontend/package-lock.json)

.DEFAULT_GOAL := help
.PHONY: help setup run test lint fmt bench clean
.PHONY: cluster
.PHONY: soak

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z]+:.*## / {printf "  %-7s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: $(VENV)/.installed static/dist/manifest.json ## Install Python and npm packages, build the front end (only what changed)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

frontend/node_modules/.installed: frontend/package.json $(FRONTEND_LOCK)
	# `npm install`, not `npm ci`: it follows the lock file too, and tolerates the optional
	# platform packages of Tailwind's engine that a registry mirror may not carry.
	cd frontend && npm install --no-audit --no-fund
	touch $@

static/dist/manifest.json: $(FRONTEND_SRC) $(TEMPLATES) frontend/build.mjs frontend/package.json frontend/node_modules/.installed
	cd frontend && npm run build

run: setup ## Migrate, seed demo data if empty, serve on 127.0.0.1:PORT (PORT=8000, DEBUG=1; SQLite unless DATABASE_URL)
	DEBUG=$(DEBUG) $(PY) manage.py migrate
	DEBUG=$(DEBUG) $(PY) manage.py seed_demo --if-empty
	DEBUG=$(DEBUG) $(PY) manage.py runserver 127.0.0.1:$(PORT)

cluster: setup ## nginx (127.0.0.1:CLUSTER_PORT, 8080) before two gunicorn app servers on PostgreSQL + Redis
	$(PY) scripts/cluster.py start --port $(CLUSTER_PORT)

test: setup ## Run the test suite (extra pytest arguments: ARGS="...")
	$(BIN)/pytest $(ARGS)

lint: $(VENV)/.installed ## Check style: ruff check and ruff format --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(VENV)/.installed ## Format the code and apply ruff's safe fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

BENCH_ARGS ?=

bench/node_modules/.installed: bench/package.json bench/package-lock.json
	cd bench && npm install --no-audit --no-fund
	touch $@

bench: setup bench/node_modules/.installed ## Benchmark (gunicorn, PostgreSQL, Redis, wrk, Lighthouse) into bench/results.md
	@# Debian's wrk and Chromium (Lighthouse drives it); installed when missing (needs root).
	@command -v wrk >/dev/null && test -x /usr/bin/chromium || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk chromium; }
	$(PY) -m bench.bench $(BENCH_ARGS)

SOAK_USERS   ?= 50
SOAK_SECONDS ?= 60

soak: setup ## Load run: SOAK_USERS=50 shoppers, SOAK_SECONDS=60, gunicorn on PostgreSQL; 0 5xx, stock reconciles
	$(PY) -m bench.run_soak --users $(SOAK_USERS) --seconds $(SOAK_SECONDS)

clean: ## Remove .venv, frontend/node_modules, static/dist and staticfiles
	rm -rf $(VENV) frontend/node_modules static/dist staticfiles
