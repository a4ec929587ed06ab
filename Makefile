# make demo: set up what the product needs and run the demo; make test: set up everything
# (the test tools too) and run every test. `make install` is the product alone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PRODUCT_STAMP := $(VENV)/.product-stamp
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint install setup system bench clean

$(PRODUCT_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(PRODUCT_STAMP)

$(STAMP): $(PRODUCT_STAMP)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(PRODUCT_STAMP)

setup: $(STAMP)

system:
	bash scripts/install-system-packages.sh

demo: install
	@echo "tabletop is in $(BIN): run '. $(BIN)/activate' to use the 'tabletop' command"
	$(BIN)/tabletop demo

lint: setup
	$(BIN)/ruff check .
	$(BIN)/python -m mypy

test: setup system lint
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup

bench: setup
	for b in bench/bench_*.py; do echo "# $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
