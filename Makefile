# minigrad course: the commands people type.
#
#   make lab       open the course in JupyterLab (notebooks/)
#   make test      library tests, notebook tests (nbval) and the browser test
#   make bench     benchmarks (python -m benchmarks)
#   make figures   regenerate the figures (figures/make_figures.py)
#
# Every target first runs tools/setup_env.sh, which creates .venv, installs
# the package and its tools when pyproject.toml changed, and checks for
# Graphviz's `dot`. Running it again when nothing changed takes a moment.

SHELL := /bin/bash
VENV ?= .venv
PYTHON ?= python3
export VENV PYTHON

PY := $(VENV)/bin/python
# The folder of lessons that lab, test-notebooks and test-browser use.
NOTEBOOKS ?= notebooks
PYTEST_ARGS ?=
NBVAL_ARGS := --nbval --nbval-current-env --nbval-cell-timeout=300 \
	--nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider
export MINIGRAD_NOTEBOOK_DIR := $(abspath $(NOTEBOOKS))

.PHONY: help setup lab test test-lib test-notebooks test-browser bench fuzz figures clean

help:
	@sed -n '3,7p' Makefile | sed 's/^# *//'

setup:
	@bash tools/setup_env.sh

lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(NOTEBOOKS) \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root) $(LAB_ARGS)

# All three suites run even when one fails; the exit status says if any did.
test: setup
	@failed=""; \
	for suite in test-lib test-notebooks test-browser; do \
		$(MAKE) --no-print-directory $$suite || failed="$$failed $$suite"; \
	done; \
	if [ -n "$$failed" ]; then echo; echo "make test: FAILED:$$failed"; exit 1; fi; \
	echo; echo "make test: all suites passed"

# pytest exits with 5 when it collected nothing (e.g. no notebooks yet).
define run_pytest
	@echo "== $(1)"; \
	$(PY) -m pytest $(2) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "($(1): nothing to test yet)"; rc=0; fi; \
	exit $$rc
endef

test-lib: setup
	$(call run_pytest,library tests,tests --ignore=tests/browser)

test-notebooks: setup
	$(call run_pytest,notebook tests,$(NBVAL_ARGS) $(NOTEBOOKS))

test-browser: setup
	$(call run_pytest,browser test,tests/browser)

bench: setup
	$(PY) -m benchmarks

# Random autograd programs against PyTorch, a long run (CI runs a short one).
FUZZ_EXAMPLES ?= 5000
fuzz: setup
	MINIGRAD_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/test_fuzz_vs_torch.py -q -p no:cacheprovider

figures: setup
	$(PY) figures/make_figures.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/browser/screenshots
