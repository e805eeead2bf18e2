"""A master of the cluster killed under load (SIGKILL) with no DANGER_DURABILITY set, its
replica promoted, and the killed node left dead: the promoted replica has no replica of its
own. Its games play on once it has taken over, with its own fsync as a single server's, and
/health says so; the games on the other masters never stop, nor do creates, although the
client's rate buckets lived on the killed master (they are let through unchecked while their
node is away); and a command
answered 503 whose events were written, sent again by the same seat with the same body (no
Idempotency-Key), is answered with its first result, never applied twice. Three masters and
three replicas on loopback (tests/cluster.py); unlike tests/integration/test_failover.py,
nothing comes back."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from service.assembly.app import create_app
from service.infra.config import Rate, Rates, Settings
from service.infra.durability import Durability
from tests.cluster import LoopbackCluster, master_holding
from tests.conftest import on_socket
from tests.integration.test_failover import KINDS, master_of
from tests.players import Table, commands, first_to_act, new_table

BEFORE_SECONDS = 3.0  # of load before the kill
AFTER_SECONDS = 5.0  # of load once the replica has taken over
GRACE_SECONDS = 3.0  # after the promotion, while clients still meet the switch
PACE_SECONDS = 0.1  # between a seat's commands, so that games last through the switch


@dataclass
class Sent:
    """One command as its seat sent it, and again after each 503."""

    body: dict
    attempts: list[tuple[str, float, int, str]] = field(default_factory=list)
    # (X-Request-ID, when, status, code) of each attempt
    events: list[dict] = field(default_factory=list)  # of the answer that ended it, a 200


@dataclass
class Seen:
    answers: list[tuple[float, int, str]] = field(default_factory=list)  # every request's
    sent: list[Sent] = field(default_factory=list)


async def play(table: Table, seen: Seen, until: list[float], rng: random.Random) -> None:
    """Legal commands, one seat after another, until `until[0]` or the game's end; a command
    answered 503 is sent again, the same body by the same seat, until it is answered."""
    async for seat, body in commands(table, until, rng, lambda r: seen.answers.append(_answer(r))):
        sent = Sent(body)
        seen.sent.append(sent)
        while time.monotonic() < until[0] + 30:
            request = uuid.uuid4().hex
            r = await table.send(seat, sent.body, **{"X-Request-ID": request})
            seen.answers.append(_answer(r))
            sent.attempts.append((request, *seen.answers[-1]))
            if r.status_code != 503:
                break
            await asyncio.sleep(0.05)
        if r.status_code == 200:
            sent.events = r.json()["events"]
        await asyncio.sleep(PACE_SECONDS)


async def create(client: httpx.AsyncClient, made: list, until: list[float]) -> None:
    """New games, one after another, until `until[0]`: (when, status, code) of each."""
    while time.monotonic() < until[0]:
        r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
        made.append(_answer(r))
        await asyncio.sleep(PACE_SECONDS)


def _answer(r: httpx.Response) -> tuple[float, int, str]:
    code = r.json().get("code", "") if r.status_code >= 400 else ""
    assert r.status_code < 500 or r.headers.get("Retry-After"), (r.status_code, code)
    return time.monotonic(), r.status_code, code


async def test_a_master_left_without_its_replica_keeps_its_games_going(tmp_path: Path):
    cluster = LoopbackCluster(tmp_path, masters=3, replicas=1).start()
    try:
        settings = Settings().replace(
            # On, and generous: the client's buckets live on the master that is killed.
            rates=Rates(**dict.fromkeys(Rates.__dataclass_fields__, Rate(1_000_000, 1))),
            open_games_per_client=0,
            queue_url=cluster.queue_url,
            durability=Durability.parse(None, None),  # DANGER_DURABILITY unset
        )
        app = create_app(settings, cluster.url)
        async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as client:
            health = (await client.get("/health")).json()["durability"]
            assert health["mode"] == "replicas" and health["replicas"] == 1, health
            await check_failover_alone(cluster, client)
    finally:
        cluster.stop()


async def check_failover_alone(cluster: LoopbackCluster, client: httpx.AsyncClient) -> None:
    masters = len(cluster.masters)
    tables: list[Table] = []
    for kind, seats, options in itertools.islice(itertools.cycle(KINDS), 60):
        tables.append(await new_table(client, seats=seats, game=kind, **options))
        found = {master_of(t.id, masters) for t in tables}
        if len(tables) >= 12 and found == set(range(masters)):
            break
    # The master of the client's create bucket, asked on every create: its failover must
    # stop no create (nor anything else) of the games elsewhere.
    victim = master_holding(b"dg:rate:create:127.0.0.1", masters)
    on_victim = {t.id for t in tables if master_of(t.id, masters) == victim}
    assert on_victim and len(on_victim) < len(tables), "games on the victim and elsewhere"

    seen = {t.id: Seen() for t in tables}
    until = [float("inf")]
    players = [
        asyncio.create_task(play(t, seen[t.id], until, random.Random(n)))
        for n, t in enumerate(tables)
    ]
    made: list[tuple[float, int, str]] = []
    players.append(asyncio.create_task(create(client, made, until)))
    await asyncio.sleep(BEFORE_SECONDS)
    killed_at = time.monotonic()
    cluster.masters[victim].kill()  # and it stays dead
    promoted = await cluster.promoted(victim, killed_at + 60)
    promoted_at = time.monotonic()
    until[0] = promoted_at + GRACE_SECONDS + AFTER_SECONDS
    await asyncio.gather(*players)

    switch = (killed_at, promoted_at + GRACE_SECONDS)
    # A new game may live on any master: none is refused while one fails over.
    assert made and all(status == 201 for _, status, _ in made), [a for a in made if a[1] != 201]
    played_on = 0
    for game_id, game in seen.items():
        for at, status, code in game.answers:
            if status == 503:
                assert game_id in on_victim, f"{game_id} on a live master answered 503 {code}"
                assert switch[0] <= at <= switch[1], (game_id, code, at - killed_at)
        if game_id not in on_victim:  # never stopped: answered 200 while the switch lasted
            during = [a for a in game.answers if killed_at <= a[0] <= switch[1]]
            assert not during or any(a[1] == 200 for a in during), game_id
        else:  # the promoted replica's games play on, although it has no replica
            after = [a for a in game.answers if a[0] > switch[1]]
            assert not after or any(a[1] == 200 for a in after), game_id
            played_on += bool(after)
        await never_applied_twice(client, game_id, game)
    assert played_on, "no game of the promoted replica was played after the switch"
    # A game made now on the promoted replica's slots plays, each command answered at once.
    for kind, seats, options in itertools.islice(itertools.cycle(KINDS), 60):
        table = await new_table(client, seats=seats, game=kind, **options)
        if master_of(table.id, masters) == victim:
            break
    else:
        raise AssertionError("no new game landed on the promoted replica's slots")
    for _ in range(5):
        seat, legal = await first_to_act(table)
        r = await table.send(seat, legal[0])
        assert r.status_code == 200, r.text
        if (await table.state())["status"] != "active":
            break
    health = (await client.get("/health")).json()["durability"]
    assert health["alone"] == [f"127.0.0.1:{promoted.port}"], health
    assert "danger_store_primaries_alone 1.0" in (await client.get("/metrics")).text


async def never_applied_twice(client: httpx.AsyncClient, game_id: str, game: Seen) -> None:
    """Each command is in the log once at most, whichever of its attempts wrote it; the
    answer that ended it with a 200 carries the events of the attempt that was kept."""
    r = await client.get(f"/v1/games/{game_id}/events", params={"limit": 5000})
    assert r.status_code == 200, r.text
    events = r.json()["events"]
    by_request: dict[str, list[int]] = {}
    for event in events:
        request = (event.get("meta") or {}).get("client_request")
        if request is not None:
            by_request.setdefault(request, []).append(event["seq"])
    for sent in game.sent:
        written = [by_request[a[0]] for a in sent.attempts if a[0] in by_request]
        assert len(written) <= 1, (game_id, sent.body, sent.attempts, written)
        if sent.events:
            assert written and [e["seq"] for e in sent.events] == written[0], (game_id, sent)
