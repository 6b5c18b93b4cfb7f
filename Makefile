# make demo: a short rendered Swival match (medium vs easy), result printed, GIF written.
# make lint: ruff check and the import layers (lint-imports).
# make test: lint, then the whole test suite, then make test-rllib.
# make test-rllib: RLlib self-play end to end and the Tianshou recipe, in .venv-rllib/ (Ray pins its own
#   gymnasium, so the rllib extra never goes into .venv/).
# Each venv is created on first use: torch 2.13.0 (CPU) first, then the project.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
RLLIB_VENV  := .venv-rllib
RLLIB_PY    := $(RLLIB_VENV)/bin/python
RLLIB_STAMP := $(RLLIB_VENV)/.installed
CHECK_TORCH := import torch; assert torch.__version__ == "2.13.0+cpu", "another torch: " + torch.__version__

.PHONY: demo lint test test-rllib bench clean-venv

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[train,test,video]'
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
	$(VENV)/bin/lint-imports

test: lint
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q -n 2
	$(MAKE) test-rllib

# one test process: Ray starts once for both games' runs
test-rllib: $(RLLIB_STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy OPENBLAS_NUM_THREADS=1 $(RLLIB_PY) -m pytest -q -p no:xdist \
		tests/test_rllib.py tests/test_recipes.py

bench: $(STAMP)
	$(VENV)/bin/swgym bench

clean-venv:
	rm -rf $(VENV) $(RLLIB_VENV)
