# The two commands of the quick start: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: constraints run run-cluster test test-pure compiled pure test-cluster test-faults fault-tools test-browser test-proxy test-examples chromium nginx screenshots lint openapi client bench bench-tools ab profile anatomy soak capacity clean

# `make run` installs what the service needs, no more; the test tools come with `make test`.
# Cython comes too: it compiles the hot modules below.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[compile]"
	touch $(STAMP)

# The hot modules of the rules and of the fold (docs/performance.md, "Compiled rules"):
# Cython builds each into a C extension beside its source, which Python then imports in
# its place; annotations are left untyped, so the compiled module does what its source
# says, no more. Rebuilt when a source changes (Cython redoes only the changed ones); a
# module changed since its build stops the service and the tests until it is built again
# (service/infra/compiled.py). Without a C compiler the build fails, its extensions are
# removed, and the pure-Python modules run: `make pure` does the same on purpose.
COMPILED := $(wildcard domain/kernel/table.py domain/kernel/messages.py domain/*/state.py \
	domain/*/rules.py domain/*/view.py domain/*/scoring.py) events/envelope.py \
	service/play/game_model.py
COMPILED_STAMP := $(VENV)/.compiled

$(COMPILED_STAMP): $(STAMP) $(COMPILED)
	$(VENV)/bin/cythonize -i -q -j 2 -3 -X annotation_typing=False $(COMPILED) \
		|| { echo "The rules were not compiled (no C compiler?): the Python modules run."; \
		     $(MAKE) --no-print-directory pure; }
	touch $(COMPILED_STAMP)

compiled: $(COMPILED_STAMP)

pure:
	find domain events service \( -name '*.so' -o -name '*.c' \) -delete
	rm -f $(COMPILED_STAMP)

# The Python SDK (clients/python) comes too, editable: the tests and examples/ import it; and
# the verifier (clients/verifier), which tests/test_verifier.py runs on the service's exports.
$(TEST_STAMP): $(STAMP) clients/python/pyproject.toml clients/verifier/pyproject.toml
	$(PY) -m pip install --quiet -c constraints.txt -e ".[test]"
	$(PY) -m pip install --quiet -c constraints.txt -e ./clients/python
	$(PY) -m pip install --quiet -c constraints.txt -e ./clients/verifier
	touch $(TEST_STAMP)

run: $(STAMP) $(COMPILED_STAMP)
	$(VENV)/bin/danger serve

# The service on a Valkey cluster of three masters on loopback, with two queue servers
# (docs/scaling.md).
run-cluster: $(STAMP)
	$(PY) -m tests.cluster --queues 2 -- sh -c 'REDIS_URL="$$DANGER_TEST_REDIS_URL" \
		DANGER_QUEUE_URL="$$DANGER_TEST_QUEUE_URL" exec $(VENV)/bin/danger serve'

# The browser tests and the proxy's have their own targets (below), so `make test` takes the
# same time with Chromium and nginx installed or not. The tests that start clusters or replicas
# of their own to kill their masters (REPLICA_TESTS) run in `make test-cluster`.
REPLICA_TESTS := tests/integration/test_failover.py tests/integration/test_failover_alone.py \
	tests/integration/test_durability_check.py tests/transparency/test_log_failover.py
# A worker SIGKILLed mid-delivery (16 s): with the faults, out of `make test`'s ten minutes.
KILL_TESTS := tests/webhooks/test_worker_killed.py
test: $(TEST_STAMP) $(COMPILED_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PY) -m pytest -q --ignore=tests/browser --ignore=tests/proxy \
		--ignore=tests/faults/test_faults.py $(addprefix --ignore=,$(REPLICA_TESTS) $(KILL_TESTS))

# The rules and the fold as the pure-Python modules run them, beside a compiled build: the
# domain's tests and the fold's, on a copy of the sources without the extensions (about a
# minute). CI runs it after `make test`, which tests the compiled build.
PURE_COPY := $(VENV)/pure
test-pure: $(TEST_STAMP)
	rm -rf $(PURE_COPY) && mkdir -p $(PURE_COPY)
	cp -r domain events service tests docs pyproject.toml $(PURE_COPY)/
	find $(PURE_COPY) \( -name '*.so' -o -name '*.c' \) -delete
	cd $(PURE_COPY) && ../bin/python -c "import domain.kernel.table as t; \
		assert t.__file__.endswith('.py'), t.__file__"
	cd $(PURE_COPY) && ../bin/python -m pytest -q -p no:randomly tests/domain tests/test_fold.py

# The suite's API, projections, streams, timers and durability tests on a Valkey cluster of
# three masters on loopback, with the job queue on a standalone Valkey (tests/cluster.py).
# Then the tests of failover and replicas (REPLICA_TESTS), on clusters and replicas of their own.
CLUSTER_TESTS := tests/api tests/integration/test_projections.py \
	tests/integration/test_projection_races.py tests/integration/test_rebuild_live.py \
	tests/integration/test_feed_trim.py tests/integration/test_dead_letters.py \
	tests/integration/test_lobby_and_stream.py tests/integration/test_streams.py \
	tests/integration/test_stream_writer.py tests/integration/test_stream_rights.py \
	tests/integration/test_bell.py tests/integration/test_view_streams.py \
	tests/integration/test_player_streams.py \
	tests/integration/test_timers.py tests/integration/test_timer_retry.py \
	tests/integration/test_worker.py tests/integration/test_bot_jobs.py \
	tests/integration/test_store.py tests/integration/test_concurrency.py \
	tests/integration/test_race.py tests/integration/test_durability.py \
	tests/integration/test_cluster.py tests/integration/test_queue_servers.py \
	tests/transparency/test_receipts.py tests/transparency/test_log.py \
	tests/transparency/test_audit_receipts.py \
	tests/webhooks/test_endpoints.py tests/webhooks/test_events.py tests/webhooks/test_bounds.py \
	tests/integration/test_quick_play.py

test-cluster: $(TEST_STAMP) $(COMPILED_STAMP)
	$(PY) -m tests.cluster -- $(PY) -m pytest -q -p no:randomly $(CLUSTER_TESTS)
	$(PY) -m pytest -q -p no:randomly $(REPLICA_TESTS)

# examples/ against `danger serve` as `make run` starts it (default settings, every limit on),
# on a free port with a temporary data directory: play.py for each game, then play-danger.sh.
test-examples: $(TEST_STAMP) $(COMPILED_STAMP)
	$(PY) examples/run_all.py

# Faults a trusted store is tested against (tests/faults, docs/reliability.md "Tested under
# faults"): the API processes, the worker and a three-master cluster with replicas, each on a
# host of its own (a network namespace: root, Debian's iproute2 and nftables), while games of
# the four kinds play, a nemesis partitions, slows, pauses, kills, fails over and steps the
# worker's clock (libfaketime, Debian's faketime) for DANGER_FAULT_SECONDS (60), then the
# checker holds every answer and log to the promises (about three minutes). The seed is
# DANGER_FAULT_SEED (random and printed when unset); `python -m tests.faults --runs N` runs
# several.
fault-tools:
	command -v nft >/dev/null && command -v ip >/dev/null && command -v faketime >/dev/null || \
		(apt-get update -qq && apt-get install -y -qq iproute2 nftables faketime)

test-faults: $(TEST_STAMP) $(COMPILED_STAMP) fault-tools
	$(PY) -m pytest -q -s -p no:randomly tests/faults $(KILL_TESTS)

# The web client in a real browser (tests/browser): Debian's Chromium, driven by Playwright.
chromium:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

test-browser: $(TEST_STAMP) $(COMPILED_STAMP) chromium
	$(PY) -m pytest -q -p no:randomly tests/browser

# Every page at desktop and phone width, into docs/screenshots/: the pages tests/browser/
# test_pages.py checks, as it checks them.
screenshots: $(TEST_STAMP) $(COMPILED_STAMP) chromium
	DANGER_TEST_SCREENSHOTS=docs/screenshots $(PY) -m pytest -q -p no:randomly tests/browser/test_pages.py

# The TypeScript client (clients/typescript) against `danger serve` on a free loopback port,
# its store in a temporary directory: npm ci (from npm's cache where it holds the packages),
# tsc, then node's test runner; its tests also hold the generated types to the spec.
TS_CLIENT := clients/typescript
.PHONY: test-typescript typescript
test-typescript: $(STAMP) $(COMPILED_STAMP)
	cd $(TS_CLIENT) && npm ci --prefer-offline --no-audit --no-fund
	cd $(TS_CLIENT) && npm run build
	cd $(TS_CLIENT) && DANGER_CLI=$(abspath $(VENV))/bin/danger node scripts/with-service.mjs -- npm test

# The TypeScript client's types (clients/typescript/src/schema.ts), from the spec as
# `make openapi` writes it.
typescript: openapi
	cd $(TS_CLIENT) && npm ci --prefer-offline --no-audit --no-fund
	cd $(TS_CLIENT) && npm run generate

# deploy/proxy/nginx.conf before two API processes (tests/proxy): Debian's nginx.
nginx:
	command -v nginx >/dev/null || test -x /usr/sbin/nginx || \
		(apt-get update -qq && apt-get install -y -qq nginx-light)

test-proxy: $(TEST_STAMP) $(COMPILED_STAMP) nginx
	$(PY) -m pytest -q -p no:randomly tests/proxy

# ruff, the import contracts, then mypy ([tool.mypy] in pyproject.toml says how strictly).
lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# Not part of `make test`: a few minutes of load (docs/performance.md). wrk is Debian's.
bench-tools: $(TEST_STAMP) $(COMPILED_STAMP)
	command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	command -v strace >/dev/null || (apt-get update -qq && apt-get install -y -qq strace)
	$(PY) -m pip install --quiet -c constraints.txt -e ".[test,bench]"

bench: bench-tools
	$(PY) -m bench.run

profile: bench-tools
	$(PY) -m bench.profile

# This checkout's command path against REV's, in alternating runs: make ab REV=002e570
ab: bench-tools
	$(PY) -m bench.ab $(REV)

# What one command costs, counted: Valkey commands and system calls beside the anchor's.
anatomy: bench-tools
	$(PY) -m bench.anatomy

# Ten minutes of mixed load; memory over time (docs/performance.md, "Soak").
soak: $(TEST_STAMP) $(COMPILED_STAMP)
	$(PY) -m bench.soak

# Concurrent human-paced games on `danger serve --workers 2`, N rising until command p99
# passes 100 ms (docs/performance.md, "Capacity"); about ten minutes.
capacity: $(TEST_STAMP) $(COMPILED_STAMP)
	$(PY) -m bench.capacity

openapi: $(STAMP)
	$(VENV)/bin/danger openapi > openapi/openapi.json

# The Python SDK in clients/python, generated from openapi/openapi.json as `make openapi`
# writes it (clients/README.md); tests/test_client.py fails when the two drift apart.
client: $(TEST_STAMP) openapi
	$(PY) clients/generate_python.py

clean: pure
	rm -rf $(VENV) .data

# Move constraints.txt to the newest releases the project's ranges allow: a fresh venv,
# installed unconstrained, frozen. Then run the whole CI (.ci/run) before committing it.
constraints:
	rm -rf .venv-newest && python3 -m venv .venv-newest
	.venv-newest/bin/pip install --quiet -e ".[test,bench,compile]" -e ./clients/python
	{ sed -n '1,2p' constraints.txt; .venv-newest/bin/pip freeze --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt && rm -rf .venv-newest
