# make demo: set everything up and run the demo; make test: set up and run every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint setup system bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

system:
	bash scripts/install-system-packages.sh

demo: setup
	$(BIN)/tabletop demo

lint: setup
	$(BIN)/ruff check .

test: setup system lint
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup

bench: setup
	for b in bench/bench_*.py; do echo "# $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
