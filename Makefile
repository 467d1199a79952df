# Two commands on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test lint typecheck layers unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

play: $(STAMP)  ## a Call Break match at the terminal against three bots
	$(BIN)/callbreak play $(ARGS)

serve: $(STAMP)  ## online tables in the browser on http://127.0.0.1:8000/ (ARGS="--port 9000 ...")
	$(BIN)/callbreak serve $(ARGS)

test: $(STAMP) lint typecheck layers unit  ## ruff, mypy --strict, the layers and the whole pytest suite

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

layers: $(STAMP)  ## no import circle, no arrow up the layers of pyproject.toml, short functions
	$(BIN)/python -m pytest -q tests/test_layers.py

unit: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)  ## speed figures quoted in docs/speed.md
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
