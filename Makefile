# Two commands: `make run` (the app) and `make test` (the whole suite). Both set up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run play test browser axe bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,env,openspiel,ray,report]'
	touch $@

run: setup
	$(BIN)/codecrack serve

play: setup
	$(BIN)/codecrack play coda --seats human,random,random

browser:
	@command -v chromium >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium)

# axe-core for the accessibility browser tests: test-only, pinned in tests/web/axe/package-lock.json.
AXE := tests/web/axe
axe: $(AXE)/node_modules/axe-core/axe.min.js

$(AXE)/node_modules/axe-core/axe.min.js: $(AXE)/package-lock.json
	@command -v npm >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs npm)
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

test: setup browser axe
	$(BIN)/python -m pytest -n 2

bench: setup
	$(BIN)/codecrack bench engine --game coda --json

clean:
	rm -rf $(VENV)
