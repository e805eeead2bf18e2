"""What a request's log line costs the process: 20,000 lines of the request logger's shape
through `service/infra/logs.py` as `danger serve` configures it, to /dev/null, the CPU of every
thread of the process per line (under a minute).

    .venv/bin/python -m bench.experiments.log_lines [--lines 20000] [--rounds 3]

To compare two commits, run it from a worktree of the other one: `cd ../other &&
PYTHONPATH=. python /path/to/bench/experiments/log_lines.py` measures that commit's
`service/infra/logs.py`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time

from service.infra import logs

REQUEST = {
    "id": "5b9c2f0e6d1a4e7f8a3b2c1d0e9f8a7b",
    "method": "POST",
    "route": "/v1/games/{game_id}/commands",
    "path": "/v1/games/g0123456789/commands",
    "status": 200,
    "ms": 3.21,
    "game": "g0123456789",
    "kind": "danger",
    "seat": 1,
    "code": None,
    "client": "127.0.0.1",
}


def one_round(lines: int) -> float:
    """CPU µs per line, the writer thread's included (it is done when `stop` returns)."""
    with open(os.devnull, "w") as out:
        logs.configure("json", stream=out)
        log = logging.getLogger("danger.request")
        began = time.process_time()
        for n in range(lines):
            log.info("%s %s %d", "POST", REQUEST["path"], 200, extra={"request": REQUEST})
            if n % 16 == 0:
                time.sleep(0)  # the writer gets the interpreter now and then, as under a loop
        logs.stop()
        return (time.process_time() - began) / lines * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.experiments.log_lines", description=__doc__)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    runs = [one_round(args.lines) for _ in range(args.rounds)]
    each = ", ".join(f"{r:.1f}" for r in runs)
    print(f"{logs.__file__}: {statistics.median(runs):.1f} µs of CPU a line (median of {each})")
    print(json.dumps({"log_line_cpu_us": round(statistics.median(runs), 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
