# minigrad course: the commands people type.
#
#   make lab       open the course in JupyterLab (notebooks/)
#   make test      library tests, notebook tests (nbval), the browser test and the
#                  notebook tests again on Python 3.10, 3.13 and 3.12 with numpy 2.0.2
#                  (Colab's; test-notebooks-matrix: pyenv's interpreters, each in its own
#                  .venv-<version> without PyTorch), the last three while the library tests run
#   make student   student version without solutions (build/student/)
#   make site      the course as a static website (build/site/index.html)
#   make dist      wheel and sdist, checked with twine (dist/)
#   make set-repo URL=https://github.com/you/fork [RELEASE=v0.1.0]
#   make bench     benchmarks (python -m benchmarks)
#   make figures   regenerate the figures (figures/make_figures.py)
#
# Every target first runs tools/setup_env.sh, which checks for Graphviz's
# `dot`, creates .venv and installs what the target needs when pyproject.toml
# changed: `lab` only what the lessons need, `test` also the test tools and
# PyTorch (CPU build). Running it again when nothing changed takes a moment.

SHELL := /bin/bash
VENV ?= .venv
PYTHON ?= python3
export VENV PYTHON

PY := $(VENV)/bin/python
# The folder of lessons that lab, test-notebooks and test-browser use.
NOTEBOOKS ?= notebooks
PYTEST_ARGS ?=
# The library tests run in one process per core (pytest-xdist); TEST_WORKERS=0 runs them
# in this process, one after another (easier to debug with pdb).
TEST_WORKERS ?= auto
NBVAL_ARGS := --nbval --nbval-current-env --nbval-cell-timeout=300 \
	--nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider
export MINIGRAD_NOTEBOOK_DIR := $(abspath $(NOTEBOOKS))

.PHONY: help setup setup-test lab test test-lib test-notebooks test-browser test-notebooks-matrix \
	student site dist set-repo bench fuzz figures clean

help:
	@sed -n '3,14p' Makefile | sed 's/^# \{0,3\}//'

setup:
	@bash tools/setup_env.sh lab

setup-test:
	@bash tools/setup_env.sh test

lab: setup
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(NOTEBOOKS) \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root) $(LAB_ARGS)

# The library tests in the foreground; the other suites, which mostly wait (on a browser,
# kernels, pip), meanwhile in the background, each printed whole when it ends
# (tools/run_suites.sh). Every suite runs even when one fails; the exit status says if any did.
test: setup-test
	@MAKE="$(MAKE)" bash tools/run_suites.sh test-lib -- test-notebooks test-browser test-notebooks-matrix

# pytest exits with 5 when it collected nothing (e.g. no notebooks yet).
define run_pytest
	@echo "== $(1)"; \
	$(3) $(PY) -m pytest $(2) $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "($(1): nothing to test yet)"; rc=0; fi; \
	exit $$rc
endef

# The library tests compare results with PyTorch's to the last bit, and some of those bits
# depend on the code numpy, OpenBLAS (numpy's BLAS) and MKL (PyTorch's) pick for the CPU: an
# AVX-512 processor gets other kernels than the AVX2 ones minigrad follows. Pin each to its
# AVX2 code (as .ci/run pins PyTorch's own kernels with ATEN_CPU_CAPABILITY). MKL's LAPACK
# still differs between processors' makers: see CPU_DEPENDENT_KERNELS in tests/conftest.py.
# numpy calls its AVX-512 code X86_V4 (and AVX512_ICL, AVX512_SPR) since 2.4, and AVX512F ...
# AVX512_ICL in 2.0-2.3 (numpy 2.0's own vector exp, log, sin, ... then differ in many last bits
# from its AVX2 ones): both spellings, as each numpy passes over names it does not know.
SAME_KERNELS ?= MKL_ENABLE_INSTRUCTIONS=AVX2 OPENBLAS_CORETYPE=Haswell \
	NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR \
	AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL"

test-lib: setup-test
	$(call run_pytest,library tests,-n $(TEST_WORKERS) tests --ignore=tests/browser,$(SAME_KERNELS))

test-notebooks: setup-test
	$(call run_pytest,notebook tests,$(NBVAL_ARGS) $(NOTEBOOKS))

test-browser: setup-test
	$(call run_pytest,browser test,tests/browser)

# The lessons on the other supported Pythons, side by side (tools/notebook_matrix.sh); a
# requirement after a colon is installed with the lessons' packages: 3.12:numpy==2.0.2 is
# what Google Colab ships, the oldest numpy pyproject.toml allows.
MATRIX_PYTHONS ?= 3.10 3.13 3.12:numpy==2.0.2
test-notebooks-matrix:
	@NOTEBOOKS=$(NOTEBOOKS) NBVAL_ARGS="$(NBVAL_ARGS) $(PYTEST_ARGS)" bash tools/notebook_matrix.sh $(MATRIX_PYTHONS)

# Lessons without their solutions, executed once to prove they still run.
student: setup-test
	$(PY) tools/student.py $(NOTEBOOKS) build/student --execute

# Every lesson as an HTML page (stored outputs), plus an index page.
site: setup-test
	$(PY) tools/site.py $(NOTEBOOKS) build/site

# Built in a throwaway environment of `build`; twine checks the metadata.
dist: setup-test
	rm -rf dist
	$(PY) -m pip install --quiet build twine
	$(PY) -m build --outdir dist .
	$(PY) -m twine check --strict dist/*

set-repo: setup
	@test -n "$(URL)" || { echo "usage: make set-repo URL=https://github.com/<owner>/<name> [RELEASE=v0.1.0]"; exit 2; }
	$(PY) tools/set_repo.py $(URL) $(if $(RELEASE),--release $(RELEASE))

bench: setup
	$(PY) -m benchmarks

# Random autograd programs against PyTorch, a long run (CI runs a short one).
FUZZ_EXAMPLES ?= 5000
fuzz: setup
	MINIGRAD_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest tests/test_fuzz_vs_torch.py -q -p no:cacheprovider

figures: setup
	$(PY) figures/make_figures.py

clean:
	rm -rf $(VENV) $(foreach v,$(MATRIX_PYTHONS),.venv-$(subst ==,,$(subst :,-,$(v)))) .pytest_cache .hypothesis tests/browser/screenshots build dist
