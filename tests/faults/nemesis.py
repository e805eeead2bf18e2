"""The nemesis: faults applied one after another, in an order and with durations drawn from
the run's seed, each held a while and then healed (a killed process started again, as its
supervisor would); between two faults it waits for the store to be whole again (three
masters, each with its replica online) so that every fault meets a working service.

Its faults, by name:
- `partition-api-master`: an API process and a master cannot reach each other;
- `partition-master-replica`: a master and its replica cannot;
- `partition-minority-master`: a master is cut off from every other node of the cluster
  (the API processes still reach it): held past the cluster's node timeout, its replica is
  promoted and the old master, healed, becomes its replica;
- `partition-worker-queue`: the worker and the job queue's server cannot;
- `partition-worker-master`: the worker and a master cannot;
- `slow-api-master`: a narrow, lossy link between an API process and a master;
- `pause-api`, `pause-worker`, `pause-node`: SIGSTOP, held, then SIGCONT (a node paused
  past the node timeout is failed over);
- `kill-api`, `kill-worker`, `kill-node`: SIGKILL, held, then started again;
- `failover`: a replica takes over from its master (CLUSTER FAILOVER);
- `clock-jump`: the worker's wall clock stepped forward or back, held, then true again.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from redis import Redis
from redis.exceptions import RedisError

from tests.cluster import Node
from tests.faults.deployment import Deployment, Process

STEADY_SECONDS = 60.0  # the store must be whole again this soon after a fault is healed
CLOCK_STEPS = (-120.0, -30.0, -5.0, 5.0, 30.0, 120.0)


@dataclass
class Applied:
    name: str
    detail: str
    at: float  # seconds from the run's start
    held: float


@dataclass
class Nemesis:
    deployment: Deployment
    rng: random.Random
    applied: list[Applied] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # the store never whole again
    began: float = field(default_factory=time.monotonic)

    @property
    def names(self) -> list[str]:
        names = [
            "partition-api-master",
            "partition-master-replica",
            "partition-minority-master",
            "partition-worker-queue",
            "partition-worker-master",
            "slow-api-master",
            "pause-api",
            "pause-worker",
            "pause-node",
            "kill-api",
            "kill-worker",
            "kill-node",
            "failover",
        ]
        if self.deployment.clock_steps:
            names.append("clock-jump")
        return names

    def counts(self) -> Counter[str]:
        return Counter(a.name for a in self.applied)

    async def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            name = self.rng.choice(self.names)
            held = round(self.rng.uniform(1.0, 6.0), 1)
            at = time.monotonic() - self.began
            detail = await getattr(self, name.replace("-", "_"))(held)
            self.applied.append(Applied(name, detail, round(at, 1), held))
            await self.whole(f"after {name} ({detail})")
            await asyncio.sleep(self.rng.uniform(0.5, 2.0))

    async def whole(self, when: str) -> None:
        """Everything healed, started and resumed, and the store whole again."""
        d = self.deployment
        await asyncio.to_thread(d.lab.heal)
        d.step_clock(0)
        for process in d.processes:
            if process.paused:
                process.resume()
            if not process.running:
                process.start()
        for node in (*d.nodes, *d.cluster.queues):
            if node.process is None:
                await asyncio.to_thread(node.start)
        if not await asyncio.to_thread(d.wait_steady, STEADY_SECONDS):
            self.findings.append(f"the store was not whole again {STEADY_SECONDS:g} s {when}")

    # -- what is chosen

    def _masters(self) -> list[Node]:
        masters = []
        for node in self.deployment.nodes:
            try:
                with Redis(node.host, node.port, socket_timeout=1) as r:
                    if r.execute_command("ROLE")[0] == b"master":
                        masters.append(node)
            except RedisError:
                pass
        return masters or list(self.deployment.cluster.masters)

    def _replica_of(self, master: Node) -> Node | None:
        for node in self.deployment.nodes:
            if node is master:
                continue
            try:
                with Redis(node.host, node.port, socket_timeout=1) as r:
                    info: dict[str, Any] = r.info("replication")
            except RedisError:
                continue
            if info.get("role") == "slave" and info.get("master_host") == master.host:
                return node
        return None

    def _host(self, node: Node) -> Any:
        return self.deployment.node_host(node)

    async def _hold(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    # -- the faults; each returns what it did, in words

    async def partition_api_master(self, held: float) -> str:
        api, master = self.rng.choice(self.deployment.apis), self.rng.choice(self._masters())
        await asyncio.to_thread(self.deployment.lab.cut, api.host, self._host(master))
        await self._hold(held)
        return f"{api.name} | {self._host(master).name}"

    async def partition_master_replica(self, held: float) -> str:
        master = self.rng.choice(self._masters())
        replica = self._replica_of(master)
        if replica is None:
            return f"{self._host(master).name} has no replica"
        await asyncio.to_thread(self.deployment.lab.cut, self._host(master), self._host(replica))
        await self._hold(held)
        return f"{self._host(master).name} | {self._host(replica).name}"

    async def partition_minority_master(self, held: float) -> str:
        master = self.rng.choice(self._masters())
        others = [self._host(n) for n in self.deployment.nodes if n is not master]
        await asyncio.to_thread(self.deployment.lab.cut_off, self._host(master), others)
        await self._hold(held + 2.0)  # past the node timeout, often
        return f"{self._host(master).name} | the other nodes"

    async def partition_worker_queue(self, held: float) -> str:
        d = self.deployment
        await asyncio.to_thread(d.lab.cut, d.worker.host, d.queue_host)
        await self._hold(held)
        return "worker | queue0"

    async def partition_worker_master(self, held: float) -> str:
        d = self.deployment
        master = self.rng.choice(self._masters())
        await asyncio.to_thread(d.lab.cut, d.worker.host, self._host(master))
        await self._hold(held)
        return f"worker | {self._host(master).name}"

    async def slow_api_master(self, held: float) -> str:
        api, master = self.rng.choice(self.deployment.apis), self.rng.choice(self._masters())
        await asyncio.to_thread(self.deployment.lab.slow, api.host, self._host(master))
        await self._hold(held)
        return f"{api.name} ~ {self._host(master).name}"

    async def _pause(self, process: Process, held: float) -> str:
        process.pause()
        await self._hold(held)
        process.resume()
        return process.name

    async def _kill(self, process: Process, held: float) -> str:
        process.kill()
        await self._hold(held)
        process.start()
        return process.name

    async def pause_api(self, held: float) -> str:
        return await self._pause(self.rng.choice(self.deployment.apis), held)

    async def pause_worker(self, held: float) -> str:
        return await self._pause(self.deployment.worker, held)

    async def pause_node(self, held: float) -> str:
        node = self.rng.choice(self.deployment.nodes)
        with node.paused():
            await self._hold(held)
        return self._host(node).name

    async def kill_api(self, held: float) -> str:
        return await self._kill(self.rng.choice(self.deployment.apis), held)

    async def kill_worker(self, held: float) -> str:
        return await self._kill(self.deployment.worker, held)

    async def kill_node(self, held: float) -> str:
        node = self.rng.choice(self.deployment.nodes)
        node.kill()
        await self._hold(held)
        await asyncio.to_thread(node.start)
        return self._host(node).name

    async def failover(self, held: float) -> str:
        master = self.rng.choice(self._masters())
        replica = self._replica_of(master)
        if replica is None:
            return f"{self._host(master).name} has no replica"
        with Redis(replica.host, replica.port, socket_timeout=2) as r:
            r.execute_command("CLUSTER", "FAILOVER")
        await self._hold(held)
        return f"{self._host(replica).name} took over from {self._host(master).name}"

    async def clock_jump(self, held: float) -> str:
        step = self.rng.choice(CLOCK_STEPS)
        self.deployment.step_clock(step)
        await self._hold(held)
        self.deployment.step_clock(0)
        return f"worker {step:+g} s"
