# Every target sets up what it needs on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DB ?= $(CURDIR)/.demo/errdex.db
DEMO_PACKAGE ?= requests==2.28.1

.PHONY: demo test lint venv bench clean

$(BIN)/errdex: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

venv: $(BIN)/errdex

demo: venv
	ERRDEX_DB=$(DB) bash scripts/demo.sh $(DEMO_PACKAGE)

lint: venv
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: venv lint
	$(BIN)/pytest -q

bench: venv
	$(BIN)/python bench/index_speed.py

clean:
	rm -rf $(VENV) .demo .pytest_cache .mypy_cache .ruff_cache
