"""`make bench`: the command path against the anchor, replay, audit, projection lag and
memory, in one run against one embedded Valkey (AOF on, fsync always). The last line
printed is one JSON object with every figure.

    .venv/bin/python -m bench.run [--duration 20] [--connections 16] [--processes 1 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench import keyed_games, peer, record
from bench.replay import measure_replay
from service.infra.config import SERVER_STACKS, Rates, Settings
from service.infra.embedded import EmbeddedValkey

GRANIAN = "granian"  # bench/granian_serve.py: the same processes on Granian

HERE = Path(__file__).parent
OUT = HERE / "out"
RATE_KINDS = tuple(kind.upper() for kind in Rates.__dataclass_fields__)
SERVICE_FROM = "BENCH_SERVICE_FROM"  # a checkout whose service the load is sent to


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited with {proc.returncode}")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """The process and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out


def api_and_worker(serve: int) -> dict[str, list[int]]:
    """`danger serve`'s processes in two groups: the API's (its supervisor, the API
    processes, their stream writers) and the worker's (projections, timers, bots). A revision
    that ran the background inside its API process has no worker: its API figure is both."""
    processes = tree(serve)
    worker = [p for p in processes if b"service.cli\0worker" in _cmdline(p)]
    below = {c for w in worker for c in tree(w)}
    return {"api": [p for p in processes if p not in below], "worker": sorted(below)}


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def cpu_of(pids: dict[str, list[int]]) -> dict[str, float]:
    totals = {}
    for name, group in pids.items():
        total = 0.0
        for pid in group:
            with contextlib.suppress(OSError):
                total += process_cpu(pid)
        totals[name] = total
    return totals


def wrk(
    script: str,
    url: str,
    connections: int,
    seconds: float,
    env: dict[str, str],
    watch: dict[str, list[int]] | None = None,
) -> dict:
    """Run wrk with one connection per thread; its figures, CPU share and the machine's, and
    the CPU seconds per request of each watched group of processes."""
    watched = cpu_of(watch or {})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy0, total0 = cpu_times()
    began = time.monotonic()
    done = subprocess.run(
        [
            "wrk",
            f"-t{connections}",
            f"-c{connections}",
            f"-d{round(seconds)}s",
            "--timeout",
            "10s",
            "-s",
            str(HERE / script),
            url,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **env, "BENCH_THREADS": str(connections)},
        check=True,
    )
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy1, total1 = cpu_times()
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    used = {k: v - watched[k] for k, v in cpu_of(watch or {}).items()}
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    used["wrk"] = cpu
    figures["cpu_ms_per_request"] = {
        k: round(v * 1000 / max(1, figures["requests"]), 3) for k, v in used.items()
    }
    seconds_run = figures["duration_us"] / 1e6
    figures.update(
        per_s=round(figures["requests"] / seconds_run, 1),
        p50_ms=round(figures["p50_us"] / 1000, 2),
        p99_ms=round(figures["p99_us"] / 1000, 2),
        loadgen_cpu_share=round(cpu / (wall * (os.cpu_count() or 1)), 3),
        machine_busy=round((busy1 - busy0) / max(1, total1 - total0), 3),
        errors_seen=done.stderr.count("HTTP "),
    )
    return figures


class LagSampler(threading.Thread):
    """Samples the projections' lag (ms behind the newest feed entry) while the load runs."""

    def __init__(self, redis_url: str, every: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.redis_url, self.every = redis_url, every
        self.samples: list[int] = []
        self.halt = threading.Event()

    def run(self) -> None:
        asyncio.run(self._sample())

    async def _sample(self) -> None:
        from redis.asyncio import Redis

        from service.readmodels.projections import lag

        redis = Redis.from_url(self.redis_url)
        while not self.halt.is_set():
            lags = await lag(redis)
            self.samples.append(max(v["ms"] for v in lags.values()))
            await asyncio.sleep(self.every)
        await redis.aclose()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))])


def start_serve(
    redis_url: str,
    processes: int,
    stack: str | None = None,
    settings: dict[str, str] | None = None,
) -> tuple[subprocess.Popen, str]:
    """`danger serve` in sandbox mode on a free port, on the given server, with `settings`
    (DANGER_* variables) over the environment's; (process, URL)."""
    port = free_port()
    command = [sys.executable, "-m", "service.cli", "serve"]
    command += ["--sandbox", "--port", str(port), "--workers", str(processes)]
    if stack == GRANIAN:
        command = [sys.executable, "-m", "bench.granian_serve", "--port", str(port)]
        command += ["--workers", str(processes)]
    # The URL carries the server's password: in the environment, not on a command line
    # every local user can read.
    env = {**os.environ, "REDIS_URL": redis_url}
    # The load comes from one address: limits it never reaches, so each request still pays
    # for its bucket, and no game-count or connection cap.
    env["DANGER_OPEN_GAMES_PER_CLIENT"] = "0"
    env["DANGER_CONNECTIONS_PER_CLIENT"] = "0"
    env["DANGER_CPU_PER_CLIENT"] = "1000"  # the readers of bench.soak share one address
    if stack == GRANIAN:
        env["DANGER_SANDBOX"] = "1"
    elif stack is not None:
        env["DANGER_SERVER_STACK"] = stack
    env.update({f"DANGER_RATE_{kind}": "1000000/1" for kind in RATE_KINDS})
    env.update(settings or {})
    # bench.ab: the service of another revision's checkout, under this harness and anchor.
    code = os.environ.get(SERVICE_FROM)
    if code:
        env["PYTHONPATH"] = code
    proc = subprocess.Popen(
        command, env=env, cwd=code or None, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return proc, f"http://127.0.0.1:{port}"


def command_path(
    redis_url: str, valkey_pid: int, processes: int, args: argparse.Namespace, stack: str
) -> dict:
    hooks = {"DANGER_WEBHOOK_PRIVATE": "1"} if args.webhook else {}
    serve, url = start_serve(redis_url, processes, stack, hooks)
    env = {"BENCH_GAMES": str(OUT / "games.lua")}
    if args.minimal:
        env["BENCH_PREFER"] = "return=minimal"
    keyed = None
    try:
        wait_healthy(f"{url}/health", serve)
        if args.keyed_games or args.webhook:
            keyed = keyed_games.prepare(url, redis_url, args.keyed_games, args.webhook)
            env["BENCH_KEY"] = keyed.token
        wrk("game.lua", url, args.connections, args.warmup, env)
        sampler = LagSampler(redis_url)
        sampler.start()
        watch = {**api_and_worker(serve.pid), "valkey": [valkey_pid]}
        heard = keyed.delivered if keyed is not None else 0
        figures = wrk("game.lua", url, args.connections, args.duration, env, watch)
        cpu = figures["cpu_ms_per_request"]
        cpu["api+worker"] = round(cpu["api"] + cpu["worker"], 3)
        sampler.halt.set()
        sampler.join()
        figures["lag_p50_ms"] = percentile(sampler.samples, 50)
        figures["lag_p99_ms"] = percentile(sampler.samples, 99)
        figures["lag_samples"] = len(sampler.samples)
        if keyed is not None:
            figures["webhooks_delivered"] = keyed.delivered - heard  # during the load
    finally:
        stop(serve)
        if keyed is not None:
            keyed.close()
    return figures


def anchor(
    redis_url: str, valkey_pid: int, processes: int, args: argparse.Namespace, stack: str
) -> dict:
    """The anchor on the same server stack as the service (its loop and HTTP parser), so
    that the ratio compares the command paths, not the stacks."""
    port = free_port()
    if stack == GRANIAN:
        command = [sys.executable, "-m", "bench.granian_serve", "--anchor", "--port", str(port)]
        command += ["--workers", str(processes)]
    else:
        loop, http = SERVER_STACKS[stack]
        command = [sys.executable, "-m", "bench.anchor", "--port", str(port)]
        command += ["--workers", str(processes), "--loop", loop, "--http", http]
    proc = subprocess.Popen(
        command,
        env={**os.environ, "REDIS_URL": redis_url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(f"{url}/", proc)
        run = f"r{time.time_ns()}"
        wrk("anchor.lua", url, args.connections, args.warmup, {"BENCH_RUN": run + "w"})
        watch = {"anchor": tree(proc.pid), "valkey": [valkey_pid]}
        return wrk("anchor.lua", url, args.connections, args.duration, {"BENCH_RUN": run}, watch)
    finally:
        stop(proc)


def run_stack(stack: str, valkey: EmbeddedValkey, args: argparse.Namespace) -> dict[int, Any]:
    """The service and the anchor on one server stack, at each number of processes."""
    print(f"server stack {stack}: {stack_in_use(stack)}", flush=True)
    runs: dict[int, Any] = {}
    for n in args.processes:
        service = command_path(valkey.url, valkey.pid, n, args, stack)
        base = anchor(valkey.url, valkey.pid, n, args, stack)
        runs[n] = {"service": service, "anchor": base}
        print(
            f"{n} process(es): commands {service['per_s']}/s p50 {service['p50_ms']} ms "
            f"p99 {service['p99_ms']} ms | anchor {base['per_s']}/s p50 {base['p50_ms']} ms "
            f"p99 {base['p99_ms']} ms | ratio {service['per_s'] / base['per_s']:.2f} | "
            f"lag p99 {service['lag_p99_ms']} ms | wrk CPU {service['loadgen_cpu_share']:.0%}"
            f"/{base['loadgen_cpu_share']:.0%}",
            flush=True,
        )
        print(
            f"  CPU ms per request: service {service['cpu_ms_per_request']}, "
            f"anchor {base['cpu_ms_per_request']}",
            flush=True,
        )
        service["capacity_per_core"] = capacity_per_core(service["cpu_ms_per_request"])
        base["capacity_per_core"] = capacity_per_core(base["cpu_ms_per_request"])
        print(
            f"  capacity per core: {service['capacity_per_core']['api']:,} commands/s of API "
            f"CPU, {service['capacity_per_core']['api_and_valkey']:,} with Valkey's | anchor "
            f"{base['capacity_per_core']['api']:,} and "
            f"{base['capacity_per_core']['api_and_valkey']:,}",
            flush=True,
        )
    return runs


def capacity_per_core(cpu_ms: dict[str, float]) -> dict[str, int]:
    """Requests a second one core could serve at the CPU each took in the run: of the API
    processes alone, and of the API and Valkey together (wrk's own CPU left out)."""
    api = next(v for k, v in cpu_ms.items() if k not in ("valkey", "wrk"))
    return {
        "api": round(1000 / max(api, 1e-3)),
        "api_and_valkey": round(1000 / max(api + cpu_ms.get("valkey", 0.0), 1e-3)),
    }


def stack_in_use(stack: str) -> str:
    """What the API will run on for `stack` here, with the versions installed."""
    from importlib.metadata import PackageNotFoundError, version

    def have(name: str) -> str | None:
        try:
            return f"{name} {version(name)}"
        except PackageNotFoundError:
            return None

    if stack == GRANIAN:
        return f"{have('granian')} (ASGI), {have('uvloop')}"

    uvloop, httptools = have("uvloop"), have("httptools")
    loop, http = SERVER_STACKS[stack]
    loop_in_use = loop if loop != "auto" else ("uvloop" if uvloop else "asyncio")
    http_in_use = http if http != "auto" else ("httptools" if httptools else "h11")
    names = {"uvloop": uvloop, "httptools": httptools, "h11": have("h11"), "asyncio": "asyncio"}
    return f"uvicorn {version('uvicorn')}, {names[loop_in_use]}, {names[http_in_use]}"


def machine() -> dict[str, Any]:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.machine(),
    )
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench", description=__doc__)
    parser.add_argument("--duration", type=int, default=20, help="seconds of each load")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16, help="concurrent clients")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--per-kind", type=int, default=40, help="recorded games of each kind")
    parser.add_argument("--cached-games", type=int, default=10_000)
    parser.add_argument(
        "--no-peer", action="store_true", help="leave out boardgame.io (bench/peer.py)"
    )
    parser.add_argument(
        "--no-replay",
        action="store_true",
        help="leave out replay and audit (the command path only)",
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="send commands with `Prefer: return=minimal` (a 204 with the seq, no body)",
    )
    parser.add_argument(
        "--keyed-games",
        type=int,
        default=0,
        help="games of an app key started before the load; the load's games are the key's too",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="the key has an endpoint hearing every event type (bench/keyed_games.py)",
    )
    parser.add_argument(
        "--stacks",
        nargs="+",
        default=[Settings().server.server_stack],
        choices=[*SERVER_STACKS, GRANIAN],
        help="server stacks to run the service and the anchor on, each in turn",
    )
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("bench: wrk is missing (Debian: apt-get install wrk)", file=sys.stderr)
        return 2

    games = record.write(OUT / "games.lua", args.per_kind)
    print(f"recorded {len(games)} games, {sum(len(g.steps) for g in games)} commands", flush=True)
    data = Path(tempfile.mkdtemp(prefix="danger-bench-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    result: dict[str, Any] = {"machine": machine(), "connections": args.connections}
    try:
        by_stack = {stack: run_stack(stack, valkey, args) for stack in args.stacks}
        # The peer in the same run, on the same machine, with the same clients and times.
        versus = None if args.no_peer else peer.measure(args.duration, 5, args.connections)
        if versus is not None:
            one = by_stack[args.stacks[0]].get(1) or next(iter(by_stack[args.stacks[0]].values()))
            print(
                f"peer boardgame.io {versus['boardgame_io']}: {versus['moves_per_s']}/s moves "
                f"p50 {versus['p50_ms']} ms p99 {versus['p99_ms']} ms (one Node process, in "
                f"memory) | service {one['service']['per_s']}/s durable commands per API "
                f"process | ratio {one['service']['per_s'] / versus['moves_per_s']:.2f}",
                flush=True,
            )
        replay = {} if args.no_replay else measure_replay(valkey.url, args.cached_games)
        if replay:
            print(
                f"replay {replay['replay_events_per_s_memory']:,} events/s from memory, "
                f"{replay['replay_events_per_s_redis']:,} from Redis; audit "
                + ", ".join(f"{k} {v} ms" for k, v in replay["audit_ms"].items())
                + f"; {replay['bytes_per_cached_game']:,} bytes per cached game",
                flush=True,
            )
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)

    runs = by_stack[args.stacks[0]]
    top = runs[max(runs)]  # the most API processes: the machine's cores in use
    service, base = top["service"], top["anchor"]
    result.update(
        processes=max(runs),
        commands_per_s=service["per_s"],
        p50_ms=service["p50_ms"],
        p99_ms=service["p99_ms"],
        anchor_per_s=base["per_s"],
        anchor_p50_ms=base["p50_ms"],
        anchor_p99_ms=base["p99_ms"],
        ratio=round(service["per_s"] / base["per_s"], 3),
        p99_ratio=round(service["p99_ms"] / base["p99_ms"], 3),
        projection_lag_p50_ms=service["lag_p50_ms"],
        projection_lag_p99_ms=service["lag_p99_ms"],
        loadgen_cpu_share=max(service["loadgen_cpu_share"], base["loadgen_cpu_share"]),
        **{k: v for k, v in replay.items()},
        by_processes={
            str(n): {
                "commands_per_s": r["service"]["per_s"],
                "p50_ms": r["service"]["p50_ms"],
                "p99_ms": r["service"]["p99_ms"],
                "anchor_per_s": r["anchor"]["per_s"],
                "anchor_p50_ms": r["anchor"]["p50_ms"],
                "anchor_p99_ms": r["anchor"]["p99_ms"],
                "ratio": round(r["service"]["per_s"] / r["anchor"]["per_s"], 3),
                "projection_lag_p50_ms": r["service"]["lag_p50_ms"],
                "projection_lag_p99_ms": r["service"]["lag_p99_ms"],
                "games_completed": r["service"]["games_completed"],
                "games_failed": r["service"]["games_failed"],
                "webhooks_delivered": r["service"].get("webhooks_delivered", 0),
                "errors": r["service"]["errors_seen"] + r["anchor"]["refused"],
                "loadgen_cpu_share": [
                    r["service"]["loadgen_cpu_share"],
                    r["anchor"]["loadgen_cpu_share"],
                ],
                "machine_busy": [r["service"]["machine_busy"], r["anchor"]["machine_busy"]],
                "cpu_ms_per_request": {
                    "service": r["service"]["cpu_ms_per_request"],
                    "anchor": r["anchor"]["cpu_ms_per_request"],
                },
                "capacity_per_core": {
                    "service": r["service"]["capacity_per_core"],
                    "anchor": r["anchor"]["capacity_per_core"],
                },
            }
            for n, r in runs.items()
        },
        answers="minimal" if args.minimal else "full",
        stack=args.stacks[0],
        stack_in_use=stack_in_use(args.stacks[0]),
        peer=versus,
        by_stack={
            stack: {
                str(n): {
                    "commands_per_s": r["service"]["per_s"],
                    "p99_ms": r["service"]["p99_ms"],
                    "anchor_per_s": r["anchor"]["per_s"],
                    "anchor_p99_ms": r["anchor"]["p99_ms"],
                }
                for n, r in stack_runs.items()
            }
            for stack, stack_runs in by_stack.items()
        },
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
