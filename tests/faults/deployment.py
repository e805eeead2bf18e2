"""The service as an operator runs it on a cluster (deploy/README.md), every process on a
host of its own in the lab (tests/faults/lab.py): three masters and a replica of each, the
job queue's server, two API processes (`danger serve --api-only`) and the worker
(`danger worker`), whose wall clock a fault can step.

The worker's clock is libfaketime's (Debian's `faketime`): its library, preloaded, reads
the offset to add from a file on every call, so writing `+30` to the file steps the
process's wall clock half a minute forward, as a bad NTP step would. The monotonic clock is
left alone (FAKETIME_DONT_FAKE_MONOTONIC): a stepped wall clock never moves it, and the
event loop's timers run on it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from redis import Redis
from redis.exceptions import RedisError

from service.infra.embedded import die_with_parent
from tests.cluster import LoopbackCluster, Node
from tests.faults.lab import Host, Lab

API_PORT = 8000
DANGER = [sys.executable, "-m", "service.cli"]


def faketime_library() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    return found[0] if found else None


class Process:
    """One of the service's processes on a host, started again with the same command line
    and environment after a kill, as its supervisor would."""

    def __init__(self, name: str, host: Host, argv: list[str], env: dict[str, str], log: Path):
        self.name, self.host, self.argv, self.env, self.log = name, host, argv, env, log
        self.process: subprocess.Popen[bytes] | None = None
        self.paused = False

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.host.command(self.argv),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
        self.paused = False

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, sig: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)

    def pause(self) -> None:
        self.signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self.signal(signal.SIGCONT)
        self.paused = False

    def kill(self) -> None:
        if self.process is not None:
            self.resume()
            self.signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.resume()
            self.signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


class Deployment:
    """The servers and processes of one run, on `lab`'s hosts; its files under `data_dir`."""

    def __init__(self, lab: Lab, data_dir: Path, **settings: str) -> None:
        self.lab = lab
        self.data_dir = data_dir
        self.clock_file = data_dir / "worker-clock"
        self.clock_file.write_text("+0\n")
        for name in ("m0", "m1", "m2", "r0-0", "r1-0", "r2-0", "queue0"):
            lab.host(name)

        def place(name: str) -> dict[str, Any]:
            host = lab.hosts[name]
            return {"host": host.ip, "wrap": host.command([])}

        self.cluster = LoopbackCluster(data_dir / "store", masters=3, replicas=1, place=place)
        self.env = {
            **os.environ,
            "DANGER_DURABILITY": "replicas:1",
            "DANGER_DATA_DIR": str(data_dir / "service"),
            "DANGER_RATE_LIMITS": "false",
            "DANGER_OPEN_GAMES_PER_CLIENT": "0",
            "DANGER_CONNECTIONS_PER_CLIENT": "0",
            "DANGER_STREAMS_PER_CLIENT": "200",
            "DANGER_FEED_KEEP_SECONDS": "3600",  # the checker reads when each append landed
            "DANGER_SWEEP_SECONDS": "1",
            "DANGER_LOG_SECONDS": "2",
            **settings,
        }
        self.apis = [
            self._process(
                f"api{n}",
                [*DANGER, "serve", "--api-only", "--host", "0.0.0.0", "--port", str(API_PORT)],
                {},
            )
            for n in range(2)
        ]
        library = faketime_library()
        clock = (
            {
                "LD_PRELOAD": library,
                "FAKETIME_TIMESTAMP_FILE": str(self.clock_file),
                "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            }
            if library
            else {}
        )
        self.worker = self._process("worker", [*DANGER, "worker"], clock)
        self.clock_steps = library is not None

    def _process(self, name: str, argv: list[str], env: dict[str, str]) -> Process:
        host = self.lab.host(name)
        return Process(name, host, argv, {**self.env, **env}, self.data_dir / f"{name}.log")

    @property
    def processes(self) -> list[Process]:
        return [*self.apis, self.worker]

    @property
    def nodes(self) -> list[Node]:
        return [*self.cluster.masters, *self.cluster.replicas]

    def node_host(self, node: Any) -> Host:
        return next(h for h in self.lab.hosts.values() if h.ip == node.host)

    @property
    def queue_host(self) -> Host:
        return self.lab.hosts["queue0"]

    def api_url(self, n: int) -> str:
        return f"http://{self.apis[n].host.ip}:{API_PORT}"

    def start(self) -> None:
        (self.data_dir / "service").mkdir(parents=True, exist_ok=True)
        self.cluster.start()
        self.env["REDIS_URL"] = self.cluster.url
        self.env["DANGER_QUEUE_URL"] = self.cluster.queue_url
        for process in self.processes:
            process.env.update(REDIS_URL=self.cluster.url, DANGER_QUEUE_URL=self.cluster.queue_url)
            process.start()
        for n in range(len(self.apis)):
            self.wait_ready(n)

    def wait_ready(self, n: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.apis[n].running, f"api{n} exited; see {self.apis[n].log}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.api_url(n)}/health", timeout=2).status_code == 200:
                    return
            time.sleep(0.2)
        raise AssertionError(f"api{n} did not come up; see {self.apis[n].log}")

    def steady(self) -> bool:
        """Every node up and saying the cluster is ok, three masters, each with a replica
        whose link is up: appends can be confirmed everywhere again."""
        masters = 0
        for node in self.nodes:
            try:
                with Redis(node.host, node.port, socket_timeout=1) as r:
                    if b"cluster_state:ok" not in r.execute_command("CLUSTER", "INFO"):
                        return False
                    info = r.info("replication")
            except RedisError:
                return False
            if info["role"] == "master":
                masters += 1
                replicas = [v for k, v in info.items() if k.startswith("slave") and k[5:].isdigit()]
                if not any(v.get("state") == "online" for v in replicas):
                    return False
            elif info.get("master_link_status") != "up":
                return False
        return masters == len(self.cluster.masters)

    def wait_steady(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.steady():
                return True
            time.sleep(0.2)
        return False

    def step_clock(self, seconds: float) -> None:
        """The worker's wall clock `seconds` from true (0: true again)."""
        self.clock_file.write_text(f"{seconds:+g}\n")

    def close(self) -> None:
        for process in self.processes:
            with contextlib.suppress(Exception):
                process.stop()
        for node in (*self.nodes, *self.cluster.queues):
            with contextlib.suppress(Exception):
                if node.process is not None:
                    node.process.send_signal(signal.SIGCONT)
        with contextlib.suppress(Exception):
            self.cluster.stop()
