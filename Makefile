# ajr's entry points: `make test` (what CI runs), `make demo`, `make install`.
# The venv is .venv, built with python3.11; it is refreshed when pyproject.toml changes.

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test demo system-deps lint

# checkov lints deploy/k8s (tests/unit/test_deploy.py); its own venv: its pins (packaging,
# boto3, ...) would change ajr's.
CHECKOV_VENV := .venv-checkov
CHECKOV      := $(CHECKOV_VENV)/bin/checkov

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

$(CHECKOV):
	$(PYTHON) -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/python -m pip install --quiet checkov==3.3.30

# Slurm, munge and (only if nothing answers on 127.0.0.1:3306) MariaDB.
system-deps:
	bash deploy/local/install-system-deps.sh

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Every step must pass; pytest's exit 5 ("no tests collected") fails the target like any error.
# Two pytest-xdist workers, each with its own cluster and ports (tests/conftest.py): most of the
# integration time is spent waiting on Slurm and Temporal, not on a CPU. --maxschedchunk 1: a
# worker holds one test beside the one it runs. xdist's default first hands each worker a quarter
# of the suite in order, and that first quarter held every integration test: one worker ran them
# all (about 19 of CI's 23 minutes) while the other finished the unit tests and waited.
# The set-up steps (apt, ajr's venv then lint, checkov's venv) are independent: in parallel.
test:
	$(MAKE) -j4 --output-sync=target install system-deps lint $(CHECKOV)
	$(BIN)/pytest -n 2 --maxschedchunk 1 --durations=25

demo: install system-deps
	$(BIN)/ajr demo
