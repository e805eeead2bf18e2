"""What webhooks cost the command path: `bench.run` (its load, its anchor, one Valkey) with
N games of an app key in play before the load and the load's games the key's too, in
alternating runs without and with an endpoint of the key hearing every event type
(bench/keyed_games.py), so that the machine's drift falls on both alike. Each line is one
run; the last line is one JSON object with every run.

    .venv/bin/python -m bench.webhook_cost [--games 1000] [--pairs 3] [--duration 10]

The deliveries are made by the service's worker (its `hooks` projection and its sender) to
a receiver in this process; the API process's CPU a command is the command path's cost,
the worker's the webhooks'.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from statistics import median
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def one_run(webhook: bool, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "bench.run", "--no-peer", "--no-replay", "--processes", "1"]
    command += ["--duration", str(args.duration), "--keyed-games", str(args.games)]
    command += ["--webhook"] if webhook else []
    done = subprocess.run(command, cwd=HERE, capture_output=True, text=True, check=True)
    run = json.loads(done.stdout.strip().splitlines()[-1])["by_processes"]["1"]
    cpu = run["cpu_ms_per_request"]["service"]
    return {
        "commands_per_s": run["commands_per_s"],
        "anchor_per_s": run["anchor_per_s"],
        "ratio": run["ratio"],
        "p99_ms": run["p99_ms"],
        "api_cpu_ms": cpu["api"],
        "worker_cpu_ms": cpu["worker"],
        "valkey_cpu_ms": cpu["valkey"],
        "webhooks_delivered": run["webhooks_delivered"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.webhook_cost", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    args = parser.parse_args(argv)
    runs: list[dict[str, Any]] = []
    for pair in range(args.pairs):
        order = [False, True] if pair % 2 == 0 else [True, False]
        for webhook in order:
            run = {"pair": pair, "webhook": webhook, **one_run(webhook, args)}
            runs.append(run)
            print(
                f"pair {pair} {'with' if webhook else 'without'} the endpoint: "
                f"{run['commands_per_s']}/s, anchor {run['anchor_per_s']}/s, ratio "
                f"{run['ratio']}, p99 {run['p99_ms']} ms, API CPU {run['api_cpu_ms']} ms, "
                f"worker {run['worker_cpu_ms']} ms, Valkey {run['valkey_cpu_ms']} ms a "
                f"command; {run['webhooks_delivered']} deliveries during the load",
                flush=True,
            )
    for webhook in (False, True):
        mine = [r for r in runs if r["webhook"] is webhook]
        print(
            f"{'with' if webhook else 'without'}: median ratio "
            f"{median(r['ratio'] for r in mine)}, API CPU "
            f"{median(r['api_cpu_ms'] for r in mine)} ms, worker "
            f"{median(r['worker_cpu_ms'] for r in mine)} ms a command",
            flush=True,
        )
    print(json.dumps({"games": args.games, "runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
