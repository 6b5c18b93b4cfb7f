# make demo: a short rendered Swival match (medium vs easy), result printed, GIF written.
# make lint: ruff check and the import layers (lint-imports).
# make test: lint, the documentation built with --strict (docs-check), then the whole test suite.
# make docs: the documentation site in site/; make docs-assets: its GIFs and board pictures (slow, by hand, committed).
# Both create .venv/ on first use: torch 2.13.0 (CPU) first, then the project.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo lint test bench docs docs-check docs-assets clean-venv

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[train,test,video,docs]'
	touch $(STAMP)

demo: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(VENV)/bin/swgym watch swival --p0 medium --p1 easy --seed 7 --gif demo.gif

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# mkdocs' plugins print a notice about its future on every build; the build's own warnings still fail it.
MKDOCS := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(VENV)/bin/mkdocs

docs: $(STAMP)
	$(MKDOCS) build --strict --site-dir site

# The same build, as part of make test. Not --quiet: it hides the warnings --strict fails on.
docs-check: $(STAMP)
	$(MKDOCS) build --strict

docs-assets: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(PY) docs/make_assets.py

test: lint docs-check
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q -n 2

bench: $(STAMP)
	$(VENV)/bin/swgym bench

clean-venv:
	rm -rf $(VENV)
