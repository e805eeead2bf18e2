"""`python -m tests.faults [--seed S] [--seconds N] [--runs K]`: K fault runs (seeds S,
S+1, ...; a random S when not given), each run's summary printed; exit 1 if any run found a
violation. A failed run's files (the processes' and the servers' logs) are kept."""

from __future__ import annotations

import argparse
import random
import signal
import sys

from tests.faults.lab import why_not
from tests.faults.run import run_one


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.faults")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # and close the lab on the way
    reason = why_not()
    if reason is not None:
        print(f"fault runs skipped: {reason}", file=sys.stderr)
        return 2
    first = args.seed if args.seed is not None else random.randrange(1_000_000)
    failed = 0
    for seed in range(first, first + args.runs):
        summary = run_one(seed, args.seconds)
        print(summary.text(), flush=True)
        print(flush=True)
        failed += not summary.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
