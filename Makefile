# make demo: a short rendered Swival match (medium vs easy), result printed, GIF written.
# make lint: ruff check, ruff format --check, the import layers and no import cycle (lint-imports), and no
#   function over 80 lines or 8 parameters in envs/, policies/ and training/ (tests/function_limits.py).
# make test: lint, swgym warmup, the whole test suite (it builds the documentation with --strict and checks it as
#   make docs-check does: tests/cli/test_docs.py), then make test-rllib.
# make test-rllib: RLlib self-play end to end and the Tianshou recipe, in .venv-rllib/ (Ray pins its own
#   gymnasium, so the rllib extra never goes into .venv/).
# make results: every shown result measured on other policy files than the shipped ones, made again (swgym results;
#   resumable, slow: run on a quiet machine); make test fails while one is not marked stale (tests/cli/test_provenance.py).
# make docs: the documentation site in site/ (open site/index.html from disk: the offline plugin); make docs-assets: its GIFs and board pictures (slow, by hand, committed).
# Each venv is created on first use: torch 2.13.0 (CPU) first, then the project.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
RLLIB_VENV  := .venv-rllib
RLLIB_PY    := $(RLLIB_VENV)/bin/python
RLLIB_STAMP := $(RLLIB_VENV)/.installed
CHECK_TORCH := import torch; assert torch.__version__ == "2.13.0+cpu", "another torch: " + torch.__version__

.PHONY: demo lint test test-rllib bench results docs docs-check docs-screens docs-assets clean-venv

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[train,test,video,docs]'
	touch $(STAMP)

# torch first (the CPU build), so nothing Ray or Tianshou asks for pulls another one; checked after.
$(RLLIB_STAMP): pyproject.toml
	test -x $(RLLIB_PY) || $(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_PY) -m pip install --quiet --upgrade pip
	$(RLLIB_PY) -m pip install --quiet torch==2.13.0
	$(RLLIB_PY) -m pip install --quiet -e '.[rllib,tianshou,test]'
	$(RLLIB_PY) -c '$(CHECK_TORCH)'
	touch $(RLLIB_STAMP)

demo: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(VENV)/bin/swgym watch swival --p0 medium --p1 easy --seed 7 --gif demo.gif

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m tests.function_limits

# mkdocs' plugins print a notice about its future on every build; the build's own warnings still fail it.
MKDOCS := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(VENV)/bin/mkdocs

docs: $(STAMP)
	$(MKDOCS) build --strict --site-dir site

# The same build, as part of make test. Not --quiet: it hides the warnings --strict fails on. Then the site as a
# reader opens it from disk (docs/site_check.py): nothing loaded from the network, and where Debian's chromium is
# installed (apt-get install chromium; not done here) the search from file:// finds each game's page first.
docs-check: $(STAMP)
	$(MKDOCS) build --strict
	$(PY) docs/site_check.py site

# screenshots of the home page, two game pages and the guides at 1400 and 412 px in site-screens/ (chromium)
docs-screens: docs
	$(PY) docs/site_check.py site --screens site-screens

docs-assets: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(PY) docs/make_assets.py

# swgym warmup first: each engine and shipped hard compiled once, one per core, before the two test processes
# would each compile the same ones (nothing to do when the cache is warm).
test: lint
	$(VENV)/bin/swgym warmup
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q -n 2
	$(MAKE) test-rllib

# one test process: Ray starts once for both games' runs
test-rllib: $(RLLIB_STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(RLLIB_PY) -m pytest -q -p no:xdist \
		tests/training/test_rllib.py tests/training/test_recipes.py

bench: $(STAMP)
	$(VENV)/bin/swgym bench

results: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(VENV)/bin/swgym results

clean-venv:
	rm -rf $(VENV) $(RLLIB_VENV)
