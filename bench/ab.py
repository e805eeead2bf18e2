"""Two revisions' command paths in alternating runs: `bench.run` (its load, its anchor, one
Valkey) against this checkout's service and against the service of REV, in turns, so that
the machine's drift over the minutes falls on both alike. Each line is one run; the last
line is one JSON object with every run.

    .venv/bin/python -m bench.ab REV [--pairs 3] [--duration 10] [--processes 1]

REV is checked out into a temporary worktree (removed at the end); the harness, the anchor
and the recorded games are this checkout's, so only the service differs. Where this checkout
runs its hot modules compiled (`make compiled`), REV's are compiled too, the same way, so
that compiled code is never measured against pure Python.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median
from typing import Any

from bench.run import SERVICE_FROM

HERE = Path(__file__).resolve().parents[1]


def one_run(code: Path | None, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop(SERVICE_FROM, None)
    if code is not None:
        env[SERVICE_FROM] = str(code)
    command = [sys.executable, "-m", "bench.run", "--no-peer", "--no-replay"]
    command += ["--duration", str(args.duration), "--processes", str(args.processes)]
    done = subprocess.run(command, env=env, cwd=HERE, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    run = found["by_processes"][str(args.processes)]
    return {
        "commands_per_s": run["commands_per_s"],
        "anchor_per_s": run["anchor_per_s"],
        "ratio": run["ratio"],
        "p99_ms": run["p99_ms"],
        # A revision whose API process ran the background counts it here (its worker: 0).
        "api_cpu_ms": run["cpu_ms_per_request"]["service"]["api"],
        "api_worker_cpu_ms": run["cpu_ms_per_request"]["service"]["api+worker"],
        "valkey_cpu_ms": run["cpu_ms_per_request"]["service"]["valkey"],
    }


# The Makefile's COMPILED, as globs.
HOT = (
    "domain/kernel/table.py",
    "domain/kernel/messages.py",
    "domain/*/state.py",
    "domain/*/rules.py",
    "domain/*/view.py",
    "domain/*/scoring.py",
    "events/envelope.py",
    "service/play/game_model.py",
)


def compile_hot_modules(checkout: Path) -> None:
    sources = sorted(str(p.relative_to(checkout)) for g in HOT for p in checkout.glob(g))
    cythonize = Path(sys.executable).parent / "cythonize"
    command = [str(cythonize), "-i", "-q", "-j", "2", "-3", "-X", "annotation_typing=False"]
    subprocess.run([*command, *sources], cwd=checkout, check=True, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.ab", description=__doc__)
    parser.add_argument("rev", help="the revision to compare this checkout with")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True
    ).stdout.strip()
    other = Path(tempfile.mkdtemp(prefix="danger-ab-")) / "rev"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(other), args.rev], cwd=HERE, check=True
    )
    runs: list[dict[str, Any]] = []
    try:
        if (HERE / ".venv" / ".compiled").exists():
            compile_hot_modules(other)
        for pair in range(args.pairs):
            # Alternate which goes first, so that neither always follows the other.
            order = [(args.rev, other), (head, None)]
            for name, code in order if pair % 2 == 0 else order[::-1]:
                run = {"pair": pair, "code": name, **one_run(code, args)}
                runs.append(run)
                print(
                    f"pair {pair} {name}: {run['commands_per_s']}/s, anchor "
                    f"{run['anchor_per_s']}/s, ratio {run['ratio']}, p99 {run['p99_ms']} ms, "
                    f"API CPU {run['api_cpu_ms']} ms (with the worker's "
                    f"{run['api_worker_cpu_ms']}), Valkey CPU {run['valkey_cpu_ms']} ms a command",
                    flush=True,
                )
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=HERE)
    for name in (args.rev, head):
        mine = [r for r in runs if r["code"] == name]
        print(
            f"{name}: median ratio {median(r['ratio'] for r in mine)}, median API CPU "
            f"{median(r['api_cpu_ms'] for r in mine)} ms a command (with the worker's "
            f"{median(r['api_worker_cpu_ms'] for r in mine)})",
            flush=True,
        )
    print(json.dumps({"rev": args.rev, "head": head, "runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
