# Motorcycle-parts shop. `make help` lists the targets.
#
# Every install or build step leaves a stamp file and runs again only when
# its inputs are newer than the stamp, so a second `make setup` does nothing:
#   .venv/.installed                   <- requirements.txt, requirements-dev.txt
#   frontend/node_modules/.installed   <- frontend/package.json, package-lock.json
#   static/dist/manifest.json          <- frontend/src/**, templates, build.mjs, package.json

PYTHON ?= python3
PORT   ?= 8000
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

test: setup ## Run the test suite (extra pytest arguments: ARGS="...")
	$(BIN)/pytest $(ARGS)

lint: $(VENV)/.installed ## Check style: ruff check and ruff format --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: $(VENV)/.installed ## Format the code and apply ruff's safe fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: ## Benchmarks (not yet implemented)
	@echo "bench: not yet implemented"

clean: ## Remove .venv, frontend/node_modules, static/dist and staticfiles
	rm -rf $(VENV) frontend/node_modules static/dist staticfiles
