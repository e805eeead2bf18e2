# The two commands of the quick start: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint openapi bench bench-tools profile soak capacity clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/danger serve

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# Not part of `make test`: a few minutes of load (docs/performance.md). wrk is Debian's.
bench-tools: $(STAMP)
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(PY) -m pip install --quiet -e ".[test,bench]"

bench: bench-tools
	$(PY) -m bench.run

profile: bench-tools
	$(PY) -m bench.profile

# Ten minutes of mixed load; memory over time (docs/performance.md, "Soak").
soak: $(STAMP)
	$(PY) -m bench.soak

# Concurrent human-paced games on `danger serve --workers 2`, N rising until command p99
# passes 100 ms (docs/performance.md, "Capacity"); about ten minutes.
capacity: $(STAMP)
	$(PY) -m bench.capacity

openapi: $(STAMP)
	$(VENV)/bin/danger openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) .data
