"""The peer a client developer compares the service with: boardgame.io 0.50.2's own server
(Koa + socket.io, in-memory storage, one Node process), its moves acknowledged per second
while many matches are played through its socket.io transport, as its clients play them.

    .venv/bin/python -m bench.peer [--duration 20] [--warmup 5] [--connections 16]

The harness is in bench/boardgame_io/: game.js (the game, "Draw": each move draws a card
from the server's shuffle, adds it to the mover's score and passes the turn; a match ends
when its deck of `--deck` cards is empty), server.js (the server) and load.js (the load:
`--connections` matches at a time, each created and joined through the lobby REST API, one
socket.io connection per seat, one move in flight per match, as bench.run's wrk has one
request in flight per connection). Needs node and npm; `npm ci` runs when node_modules is
missing or was not installed from the package-lock.json there now. Without node or npm,
`measure` returns None and says why on stderr.

What compares with bench.run and what does not: both count what the server acknowledged
over a fixed duration after a warmup, with 16 clients each waiting for its answer before
the next, playing whole games (creation and joins included; here only moves are counted)
in one server process. The service's commands are durable (appended to Valkey with AOF and
fsync always before the answer) and each is one HTTP request; boardgame.io's moves are kept
in memory only and travel as socket.io messages over an open WebSocket, the new state
broadcast to every seat of the match. bench.run does not pin: wrk, the API process, its
worker and Valkey share the machine's cores; here the load has a core of its own.

On a machine of two cores or more the load runs on a core of its own (the last, as
bench/streams.py's `--clients-cpu` does) and the server on the others, so that the figure
is the server's, not the load's. Whether it is says in the figures: `server_busy_share`
(the server's JavaScript thread on a core or waiting for one, as a share of the window:
near 1, it never waited for the load), `server_waited_s` (of that, waiting for a core that
other work held), `moves_per_server_cpu_s` (what a core of its own would give it),
`load_cpu_share`, `load_waited_s` and `load_loop_delay_p99_ms` (how late the load read
what had come: a load that is the bottleneck shows it there first).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import hashlib
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "boardgame_io"
# Written into node_modules after a successful `npm ci`: the lockfile it installed.
STAMP = ".danger-installed"


def missing_tools() -> str | None:
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"{tool} is missing"
    return None


def lock_digest() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((HERE / name).read_bytes())
    return digest.hexdigest()


def installed() -> bool:
    stamp = HERE / "node_modules" / STAMP
    return stamp.is_file() and stamp.read_text().strip() == lock_digest()


def install() -> None:
    """`npm ci` unless node_modules already holds what package-lock.json pins."""
    if installed():
        return
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE,
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=600,
    )
    (HERE / "node_modules" / STAMP).write_text(lock_digest() + "\n")


def version_of(package: str) -> str:
    return json.loads((HERE / "node_modules" / package / "package.json").read_text())["version"]


def split_cpus(clients_cpu: int | None) -> tuple[set[int] | None, set[int] | None]:
    """(the load's cores, the server's), or (None, None) for no pinning; the same split as
    bench/streams.py's, not imported from it so that this module needs none of the
    service's packages."""
    cpus = sorted(os.sched_getaffinity(0))
    if clients_cpu == -1 or (clients_cpu is None and len(cpus) < 2):
        return None, None
    clients = cpus[-1] if clients_cpu is None else clients_cpu
    return {clients}, set(cpus) - {clients} or None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def child_setup(cpus: set[int] | None) -> Callable[[], None]:
    """Run in the child before node starts: pinned there, every thread node starts later
    inherits the cores (pinning the pid afterwards would move its main thread only); and
    the child is told SIGTERM if this process dies without its cleanup (SIGKILL)."""
    libc = None
    with contextlib.suppress(OSError):
        libc = ctypes.CDLL(None, use_errno=True)

    def setup() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)
        if libc is not None and sys.platform == "linux":
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG

    return setup


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def terminated_raises() -> Iterator[None]:
    """SIGTERM ends the measure through its cleanup, as Ctrl-C does, instead of leaving
    its node processes behind."""
    if sys.platform != "linux" or threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, raise_exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def start_server(
    port: int, cpus: set[int] | None, timeout: float = 30
) -> tuple[subprocess.Popen, dict[str, Any]]:
    """The server, once it accepts connections, and what it said then (its versions)."""
    env = {**os.environ, "NODE_ENV": "production"}  # as deployed: no debug logging
    proc = subprocess.Popen(
        ["node", str(HERE / "server.js"), "--port", str(port)],
        cwd=HERE,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=child_setup(cpus),
    )
    assert proc.stdout is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + timeout
            while (left := deadline - time.monotonic()) > 0:
                if not selector.select(left):
                    continue
                line = proc.stdout.readline()
                if not line:
                    break
                with contextlib.suppress(ValueError):
                    if (ready := json.loads(line)).get("ready") == port:
                        return proc, ready
        raise RuntimeError(f"the boardgame.io server did not start (exit {proc.poll()})")
    except BaseException:
        stop(proc)
        raise


def measure(
    duration: float = 20,
    warmup: float = 5,
    connections: int = 16,
    *,
    players: int = 3,
    deck: int = 132,
    client: str = "raw",
    clients_cpu: int | None = None,
) -> dict[str, Any] | None:
    """boardgame.io's moves/s in one run, or None (the reason on stderr) without node/npm.

    `deck` is the moves of a match: 132 by default, the mean number of commands of the
    games bench.run plays. `client`: "raw" speaks boardgame.io's socket.io protocol itself,
    "bgio" plays through boardgame.io's own Client (costlier for the load).
    """
    if reason := missing_tools():
        print(f"bench.peer: {reason}; not measured", file=sys.stderr)
        return None
    try:
        install()
    except (subprocess.SubprocessError, OSError) as error:
        print(f"bench.peer: npm ci in {HERE} failed ({error}); not measured", file=sys.stderr)
        return None
    load_cpus, server_cpus = split_cpus(clients_cpu)
    port = free_port()
    with terminated_raises():
        server, ready = start_server(port, server_cpus)
        load: subprocess.Popen | None = None
        try:
            command = ["node", str(HERE / "load.js"), "--url", f"http://127.0.0.1:{port}"]
            flags = {
                "connections": connections,
                "players": players,
                "deck": deck,
                "warmup": warmup,
                "duration": duration,
                "client": client,
                "server-pid": server.pid,
                "clk-tck": os.sysconf("SC_CLK_TCK"),
            }
            for name, value in flags.items():
                command += [f"--{name}", str(value)]
            load = subprocess.Popen(
                command,
                cwd=HERE,
                env={**os.environ, "NODE_ENV": "production"},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                preexec_fn=child_setup(load_cpus),
            )
            out, err = load.communicate(timeout=warmup + duration + 60)
            if load.returncode != 0 or not out.strip():
                raise RuntimeError(f"the load exited with {load.returncode}: {err[-2000:]}")
            figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
            figures.update(
                boardgame_io=ready["boardgame_io"],
                socket_io_server=ready["socket_io"],
                socket_io_client=version_of("socket.io-client"),
                node=ready["node"],
                storage="in-memory (not durable)",
                server_cpus=sorted(server_cpus) if server_cpus else None,
                load_cpus=sorted(load_cpus) if load_cpus else None,
                pids={"server": server.pid, "load": load.pid},
            )
        finally:
            if load is not None:
                stop(load)
            stop(server)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.peer", description=__doc__)
    parser.add_argument("--duration", type=float, default=20, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--connections", type=int, default=16, help="matches played at once")
    parser.add_argument("--players", type=int, default=3, help="seats in each match")
    parser.add_argument("--deck", type=int, default=132, help="moves in each match")
    parser.add_argument("--client", choices=["raw", "bgio"], default="raw")
    parser.add_argument(
        "--clients-cpu",
        type=int,
        default=None,
        help="the core the load runs on, the server on the others (default: the last core "
        "when there are two or more; -1: no pinning)",
    )
    args = parser.parse_args(argv)
    figures = measure(
        args.duration,
        args.warmup,
        args.connections,
        players=args.players,
        deck=args.deck,
        client=args.client,
        clients_cpu=args.clients_cpu,
    )
    if figures is None:
        return 2
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
