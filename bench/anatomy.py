"""What one command costs, counted rather than timed: the Valkey commands it causes, Valkey's
own time for each, and the system calls of the API's processes, beside the anchor's request.

Counts do not move with how busy the machine is, where throughput moves by a fifth between
two runs of one code (docs/performance.md); they say which round trips, wake-ups and writes a
command pays for that the anchor does not. One client plays recorded games (bench/record.py)
one request at a time against `danger serve --sandbox` (one API process, its worker beside
it) on an embedded Valkey of its own; then the anchor (bench/anchor.py) takes as
many requests. What the service does while idle (the sweep's reads of the shards' due sets,
the workers' polls) is measured for a few seconds first and taken off.

    .venv/bin/python -m bench.anatomy [--per-kind 2] [--no-strace]

The system calls come from `strace -c -f` attached to the server's processes (Debian's
strace; left out when it is missing): strace slows the process, so its times are not read,
only its counts. The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import pkgutil
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import redis

from bench import record
from bench.run import api_and_worker, free_port, start_serve, stop, tree, wait_healthy
from service.infra.config import SERVER_STACKS
from service.infra.embedded import EmbeddedValkey
from service.infra.lua import Script

ROOT = Path(__file__).resolve().parent.parent
IDLE_SECONDS = 4.0


def script_names() -> dict[str, str]:
    """The SHA-1 the server names each of the project's Lua scripts by, to its name: the file's,
    or module.NAME for one written in a module (service/infra/lua.py's Script)."""
    names = {
        hashlib.sha1(path.read_bytes()).hexdigest(): path.name
        for path in [*ROOT.glob("service/**/*.lua"), *ROOT.glob("events/*.lua")]
    }
    for info in pkgutil.walk_packages([str(ROOT / "service")], "service."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for attribute, value in vars(module).items():
            if isinstance(value, Script) and value.sha not in names:
                names[value.sha] = f"{info.name.rsplit('.', 1)[-1]}.{attribute}"
    return names


def command_stats(client: redis.Redis) -> dict[str, int]:
    return {
        name.removeprefix("cmdstat_"): int(stats["calls"])
        for name, stats in client.info("commandstats").items()
    }


class Counting:
    """Valkey's commands while a block runs, less what it does idle; Valkey's own time by
    command (its slow log at a threshold of 0: every command, with what it took); and the
    system calls of `pids` (strace -c), when `strace` is given."""

    def __init__(self, client: redis.Redis, pids: list[int], strace: str | None) -> None:
        self.client, self.pids, self.strace = client, pids, strace
        self.names = script_names()

    def __enter__(self) -> Counting:
        before = command_stats(self.client)
        time.sleep(IDLE_SECONDS)
        after = command_stats(self.client)
        self.idle = {k: (v - before.get(k, 0)) / IDLE_SECONDS for k, v in after.items()}
        self.client.config_set("slowlog-log-slower-than", 0)
        self.client.config_set("slowlog-max-len", 1_000_000)
        self.client.slowlog_reset()
        self.trace_file = Path(tempfile.mkstemp(prefix="anatomy-", suffix=".strace")[1])
        self.tracer = None
        if self.strace:
            attach = [arg for pid in self.pids for arg in ("-p", str(pid))]
            self.tracer = subprocess.Popen(
                [self.strace, "-c", "-f", "-o", str(self.trace_file), *attach],
                stderr=subprocess.DEVNULL,
            )
            time.sleep(1.0)  # attached
        self.before = command_stats(self.client)
        self.started = time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.3)  # the projections' last batch
        self.seconds = time.monotonic() - self.started
        self.after = command_stats(self.client)
        self.slowlog = self.client.slowlog_get(1_000_000)
        self.client.config_set("slowlog-log-slower-than", 10_000)
        if self.tracer is not None:
            self.tracer.send_signal(signal.SIGINT)
            self.tracer.wait(timeout=30)

    def figures(self, requests: int) -> dict[str, Any]:
        calls = {}
        for name, count in self.after.items():
            extra = count - self.before.get(name, 0) - self.idle.get(name, 0) * self.seconds
            if extra / requests >= 0.005 and not name.startswith(("slowlog", "config", "info")):
                calls[name] = round(extra / requests, 2)
        micros: dict[str, float] = defaultdict(float)
        for entry in self.slowlog:
            words = entry["command"].split()
            if not words:
                continue
            name = words[0].decode().lower()
            if name in ("evalsha", "eval") and len(words) > 1:
                name = self.names.get(words[1].decode().lower(), "script")
            if name.startswith(("slowlog", "config", "info")):
                continue
            micros[name] += entry["duration"]
        return {
            "valkey_calls": dict(sorted(calls.items(), key=lambda kv: -kv[1])),
            "valkey_calls_total": round(sum(calls.values()), 2),
            # The slow log has no idle rate to take off: the idle work is in these figures.
            "valkey_us": {
                k: round(v / requests, 1)
                for k, v in sorted(micros.items(), key=lambda kv: -kv[1])
                if v / requests >= 0.5
            },
            "valkey_us_total": round(sum(micros.values()) / requests, 1),
            "syscalls": read_strace(self.trace_file, requests) if self.tracer else None,
        }


def read_strace(path: Path, requests: int) -> dict[str, float]:
    counts = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        # % time, seconds, usecs/call, calls, [errors], syscall
        if len(fields) >= 5 and re.fullmatch(r"[0-9.]+", fields[0]) and fields[-1] != "total":
            counts[fields[-1]] = round(int(fields[3]) / requests, 2)
    path.unlink(missing_ok=True)
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def play(url: str, games: list[record.Recorded]) -> tuple[int, int]:
    """Every game, one request at a time: (commands, requests)."""
    commands = requests = 0
    json_body = {"content-type": "application/json"}
    with httpx.Client(base_url=url, timeout=30) as http:
        for game in games:
            made = http.post("/v1/games", content=game.create, headers=json_body).json()
            tokens = [
                http.post(f"/v1/games/{made['id']}/players", content=j, headers=json_body).json()[
                    "token"
                ]
                for j in game.joins
            ]
            admin = {"authorization": f"Bearer {made['admin_token']}"}
            http.post(f"/v1/games/{made['id']}/start", headers=admin).raise_for_status()
            requests += 2 + len(tokens)
            for seat, body in game.steps:
                bearer = {**json_body, "authorization": f"Bearer {tokens[seat]}"}
                answer = http.post(f"/v1/games/{made['id']}/commands", content=body, headers=bearer)
                answer.raise_for_status()
                commands += 1
                requests += 1
    return commands, requests


def anchor_requests(url: str, count: int) -> None:
    with httpx.Client(base_url=url, timeout=30) as http:
        for expected in range(count):
            body = {"type": "play_card", "expected": expected, "stack": 2}
            http.post("/anchor/anatomy", json=body).raise_for_status()


def start_anchor(redis_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    loop, parser = SERVER_STACKS["auto"]
    command = [sys.executable, "-m", "bench.anchor", "--port", str(port), "--workers", "1"]
    command += ["--loop", loop, "--http", parser]
    proc = subprocess.Popen(
        command,
        env={**os.environ, "REDIS_URL": redis_url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc, f"http://127.0.0.1:{port}"


def show(title: str, figures: dict[str, Any]) -> None:
    print(title, flush=True)
    print(
        f"  Valkey: {figures['valkey_calls_total']} commands and {figures['valkey_us_total']} µs "
        "of its time a request",
        flush=True,
    )
    print("    calls: " + ", ".join(f"{k} {v}" for k, v in figures["valkey_calls"].items()))
    print("    µs: " + ", ".join(f"{k} {v}" for k, v in figures["valkey_us"].items()))
    if figures["syscalls"] is not None:
        total = sum(figures["syscalls"].values())
        print(f"  system calls of the server's processes: {total:.1f} a request")
        print("    " + ", ".join(f"{k} {v}" for k, v in figures["syscalls"].items() if v >= 0.05))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.anatomy", description=__doc__)
    parser.add_argument("--per-kind", type=int, default=2, help="recorded games of each kind")
    parser.add_argument("--no-strace", action="store_true", help="leave out the system calls")
    args = parser.parse_args(argv)
    strace = None if args.no_strace else shutil.which("strace")
    if strace is None and not args.no_strace:
        print(
            "bench.anatomy: strace is missing (Debian: apt-get install strace); the system "
            "calls are left out",
            file=sys.stderr,
        )
    games = record.recordings(args.per_kind)
    data = Path(tempfile.mkdtemp(prefix="danger-anatomy-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    result: dict[str, Any] = {}
    try:
        client = redis.Redis.from_url(valkey.url)
        serve, url = start_serve(valkey.url, 1)
        try:
            wait_healthy(f"{url}/health", serve)
            time.sleep(1.0)  # the background's first passes
            # The system calls of the API's processes: the worker's (projections, jobs) are
            # its own process's since `danger serve` runs it apart.
            with Counting(client, api_and_worker(serve.pid)["api"], strace) as counted:
                commands, requests = play(url, games)
            result["service"] = {
                "commands": commands,
                "requests": requests,
                **counted.figures(requests),
            }
        finally:
            stop(serve)
        show(
            f"service: {requests} requests ({commands} commands, the rest creates, joins "
            "and starts), per request",
            result["service"],
        )
        anchor, url = start_anchor(valkey.url)
        try:
            wait_healthy(f"{url}/", anchor)
            with Counting(client, tree(anchor.pid), strace) as counted:
                anchor_requests(url, requests)
            result["anchor"] = {"requests": requests, **counted.figures(requests)}
        finally:
            stop(anchor)
        show(f"anchor: {requests} requests, per request", result["anchor"])
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
