"""One fault run: the deployment in a lab, the load, the nemesis for `seconds`, then calm,
every game left to end, and the checker. `python -m tests.faults --seed S --seconds N
[--runs K]` runs it from the command line and prints each run's summary; `make test-faults`
runs tests/faults/test_faults.py, which runs one."""

from __future__ import annotations

import asyncio
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from events import keys
from events.store import EventStore
from service.readmodels.rebuild import rebuild
from tests.faults.checker import Verdict, check_answers, check_logs
from tests.faults.deployment import Deployment
from tests.faults.lab import Lab
from tests.faults.load import History, Load
from tests.faults.nemesis import Nemesis
from tests.projections import read_models
from tests.stores import store_client

CALM_SECONDS = 5.0  # of load after the last fault, before the clients stop
END_SECONDS = 120.0  # for every game to end once the clients stopped


@dataclass
class Summary:
    seed: int
    seconds: float
    took: float = 0.0
    history: History = field(default_factory=History)
    verdict: Verdict = field(default_factory=Verdict)
    faults: dict[str, int] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.verdict.violations

    def text(self) -> str:
        h, v = self.history, self.verdict
        statuses: dict[int, int] = {}
        for (_, status, _), n in h.answers.items():
            statuses[status] = statuses.get(status, 0) + n
        codes = sorted(
            (
                (n, f"{what} {status} {code}")
                for (what, status, code), n in h.answers.items()
                if status >= 400
            ),
            reverse=True,
        )
        lines = [
            f"fault run: seed {self.seed}, {self.seconds:g} s of faults, {self.took:.0f} s in all",
            f"operations: {h.operations()} "
            f"({', '.join(f'{s}: {n}' for s, n in sorted(statuses.items()))}; "
            f"lost answers: {sum(h.transport.values())}; given up: {sum(h.gave_up.values())})",
            "refusals: " + ", ".join(f"{c} x{n}" for n, c in codes[:12]),
            f"games: {v.games} ({v.finished} over, {v.abandoned} of them abandoned; "
            f"{v.orphans} open that no client was told of), "
            f"events: {v.events}, timers rung: {v.timers}, acknowledged: "
            f"{sum(len(a) for a in h.acknowledged.values())}, streamed: "
            f"{sum(len(s) for s in h.streamed.values())}",
            "faults: " + ", ".join(f"{name} x{n}" for name, n in sorted(self.faults.items())),
            f"violations: {len(v.violations)}",
            *(f"  [{rule}] {what}" for rule, what in v.violations[:40]),
        ]
        if v.violations:  # what was done when, to find the fault that did it
            lines += ["schedule:", *(f"  {line}" for line in self.log)]
        return "\n".join(lines)


async def fault_run(seed: int, seconds: float, data_dir: Path) -> Summary:
    summary = Summary(seed, seconds)
    began = time.monotonic()
    lab = Lab()
    deployment = Deployment(lab, data_dir, DANGER_METRICS="open")
    try:
        await asyncio.to_thread(deployment.start)
        rng = random.Random(seed)
        urls = [deployment.api_url(n) for n in range(len(deployment.apis))]
        load = Load(urls, random.Random(rng.random()), summary.history)
        await load.begin()
        nemesis = Nemesis(deployment, random.Random(rng.random()))
        await nemesis.run(seconds)
        await nemesis.whole("after the last fault")
        summary.faults = dict(nemesis.counts())
        summary.log = [
            f"{a.at:7.1f} s  {a.name} ({a.detail}) for {a.held} s" for a in nemesis.applied
        ]
        await asyncio.sleep(CALM_SECONDS)
        await load.finish()
        redis = await store_client(deployment.cluster.url)
        try:
            await every_game_over(redis, summary.history, summary.verdict)
            async with httpx.AsyncClient(base_url=urls[0], timeout=30) as client:
                await projections_caught_up(client, summary.verdict)
            await check_projections(redis, deployment.cluster.url, summary.verdict)
            await check_logs(redis, summary.history, summary.verdict)
        finally:
            await redis.aclose()
        check_answers(summary.history, summary.verdict)
        for finding in nemesis.findings:
            summary.verdict.fail("store", finding)
    finally:
        await asyncio.to_thread(deployment.close)
        lab.close()
    summary.took = time.monotonic() - began
    return summary


async def every_game_over(redis: object, history: History, verdict: Verdict) -> None:
    """Until every game's log ends with its seed revealed (its clients stopped, each is idle
    and the sweep ends it), for at most END_SECONDS; the checker names those that did not."""
    store = EventStore(redis)  # type: ignore[arg-type]  # a store client
    deadline = time.monotonic() + END_SECONDS
    waiting = set(history.games)
    while waiting and time.monotonic() < deadline:
        for game in list(waiting):
            raw = await store.read_raw(game, after=0)
            if raw and b'"seed_revealed"' in raw[-1]:
                waiting.discard(game)
        await asyncio.sleep(1.0)


async def projections_caught_up(client: httpx.AsyncClient, verdict: Verdict) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = await client.get("/health", params={"fresh": "true"})
        projections = r.json().get("projections", {})
        if projections and all(p["entries"] == 0 for p in projections.values()):
            return
        await asyncio.sleep(0.5)
    verdict.fail("projections", "the projections did not catch up with the feeds in 60 s")


async def check_projections(redis: object, url: str, verdict: Verdict) -> None:
    async for key in redis.scan_iter(match=f"{keys.PREFIX}:{{*}}:dead:*"):  # type: ignore[attr-defined]
        count = await redis.xlen(key)  # type: ignore[attr-defined]
        if count:
            verdict.fail("projections", f"{count} dead letter(s) in {key!r}")
    live = await read_models(url)
    await rebuild(redis, EventStore(redis))  # type: ignore[arg-type]
    rebuilt = await read_models(url)
    if live != rebuilt:
        differ = sorted(
            str(k) for k in live.keys() | rebuilt.keys() if live.get(k) != rebuilt.get(k)
        )
        verdict.fail(
            "projections",
            f"the read models differ from a rebuild in {len(differ)} key(s): {differ[:5]}; "
            f"{_difference(live, rebuilt, differ[0])}",
        )


def _difference(live: dict, rebuilt: dict, key: str) -> str:
    """What one read model holds that its rebuild does not, and the other way round."""

    def items(model: Any) -> set[str]:
        if isinstance(model, dict):
            return {f"{k!r}={v!r}"[:160] for k, v in model.items()}
        return {repr(x)[:160] for x in (model or [])}

    here, there = items(live.get(key)), items(rebuilt.get(key))
    return f"{key}: live only {sorted(here - there)[:3]}, rebuilt only {sorted(there - here)[:3]}"


def run_one(seed: int, seconds: float, keep: bool = False) -> Summary:
    """A run in a temporary directory, removed after a run that found nothing."""
    data_dir = Path(tempfile.mkdtemp(prefix=f"danger-faults-{seed}-"))
    summary = asyncio.run(fault_run(seed, seconds, data_dir))
    if summary.ok and not keep:
        shutil.rmtree(data_dir, ignore_errors=True)
    else:
        summary.log.append(f"files kept in {data_dir}")
    return summary
