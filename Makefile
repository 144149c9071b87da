# Two commands: `make run` (the app) and `make test` (the whole suite). Both set up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run play test browser postgresql redis-nginx prometheus podman image cluster axe bench messages screenshots clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,env,openspiel,ray,report,redis]'
	touch $@

run: setup
	$(BIN)/codecrack serve

play: setup
	$(BIN)/codecrack play coda --seats human,random,random

# Debian's chromium, and a Thai font for the Thai pages and screenshots (docs/i18n.md).
browser:
	@command -v chromium >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium)
	@dpkg -s fonts-thai-tlwg >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq fonts-thai-tlwg)

# axe-core for the accessibility browser tests: test-only, pinned in tests/web/axe/package-lock.json.
AXE := tests/web/axe
axe: $(AXE)/node_modules/axe-core/axe.min.js

$(AXE)/node_modules/axe-core/axe.min.js: $(AXE)/package-lock.json
	@command -v npm >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq nodejs npm)
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The tests start their own throw-away clusters from Debian's package (tests/services.py).
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql)

# The cluster tests start Redis and nginx of their own too (tests/cluster/services.py); openssl makes the TLS test's certificate.
redis-nginx:
	@command -v redis-server >/dev/null && command -v nginx >/dev/null && command -v openssl >/dev/null || \
		($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq redis-server nginx openssl)

# The metrics test scrapes an instance with a real Prometheus of its own (tests/ops/test_metrics.py).
prometheus:
	@command -v prometheus >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq prometheus)

# Podman builds and runs the image from Debian's packages alone (docs/deploy.md, tests/ops/test_image.py):
# mmdebstrap makes the base, Debian's python3-venv resolves the wheels for the image's Python;
# podman-compose runs deploy/compose.yaml, whose services find each other by name (netavark's aardvark-dns).
podman:
	@command -v podman >/dev/null && command -v runc >/dev/null && command -v mmdebstrap >/dev/null && \
		command -v podman-compose >/dev/null && test -x /usr/lib/podman/netavark && test -x /usr/lib/podman/aardvark-dns && \
		dpkg -s python3-venv >/dev/null 2>&1 || ($(SUDO) apt-get update -qq && \
		$(SUDO) apt-get install -y -qq --no-install-recommends podman runc mmdebstrap python3-venv \
			podman-compose netavark aardvark-dns iptables)

# The image, localhost/codecrack:latest (deploy/build-image; the base is kept in ~/.cache/codecrack/container/).
image: setup podman
	PIP=$(BIN)/pip deploy/build-image

# PostgreSQL, Redis, two instances and nginx on loopback (docs/deploy.md); scripts/cluster stop ends them.
cluster: setup
	scripts/cluster start

test: setup browser postgresql redis-nginx prometheus podman axe
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=15

# The README's pictures (docs/screenshots/readme-*.png), taken again in Debian's chromium.
screenshots: setup browser
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/web/readme_screenshots.py

# Extract the Python texts (docs/i18n.md) and merge them into every language's .po file.
POT := $(VENV)/codecrack.pot
messages: setup
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project=codecrack -o $(POT) codecrack
	$(BIN)/pybabel update -i $(POT) -d codecrack/locale -D codecrack --no-fuzzy-matching --ignore-obsolete

bench: setup
	$(BIN)/codecrack bench engine --game coda --json

clean:
	rm -rf $(VENV)
