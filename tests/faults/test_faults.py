"""`make test-faults`: one fault run (tests/faults/run.py) with the seed DANGER_FAULT_SEED
(a random one when unset, printed either way) and DANGER_FAULT_SECONDS of faults (60 by
default); it fails on any violation the checker finds, and prints the run's summary.
Skipped, saying why, where network namespaces cannot be made (not root, no iproute2 or
nftables)."""

from __future__ import annotations

import os
import random

import pytest

from tests.faults.lab import why_not
from tests.faults.run import run_one

REASON = why_not()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def test_every_promise_holds_under_partitions_pauses_kills_and_clock_steps():
    seed = int(os.environ.get("DANGER_FAULT_SEED") or random.randrange(1_000_000))
    seconds = float(os.environ.get("DANGER_FAULT_SECONDS") or 60)
    summary = run_one(seed, seconds)
    print(summary.text())
    assert summary.ok, summary.text()
    # The run did what it says: faults of every kind were drawn from, and the load played.
    assert sum(summary.faults.values()) >= seconds / 10, summary.faults
    verdict = summary.verdict
    assert verdict.finished + verdict.orphans == verdict.games > 10
