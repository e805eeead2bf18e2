"""Per-client rate limits and the cap on open games, on the real server: buckets in the
session's Valkey, shared by every app on it. Each test speaks from its own addresses (the
buckets outlive a test), through httpx's ASGI transport, which sets the peer address (the
suite's AsyncTestClient is always "testclient")."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import httpx
import pytest

from service.http.guards.clients import Clients
from service.infra.config import Rate, Rates, Settings
from tests.conftest import make_app, peer, running
from tests.players import Table, new_table
from tests.stores import store_client

DANGER = {"game": "danger", "seats": 2}
POLICY = re.compile(r'^"(?P<kind>[a-z]+)";q=(?P<q>[0-9]+);w=(?P<w>[0-9]+)$')
LEFT = re.compile(r'^"(?P<kind>[a-z]+)";r=(?P<r>[0-9]+);t=(?P<t>[0-9]+)$')


def tight(**rates: Rate | None) -> Rates:
    """Today's defaults, with the given kinds replaced."""
    return Rates(**{**Rates().__dict__, **rates})


def left(response: httpx.Response) -> dict[str, Any]:
    match = LEFT.match(response.headers["RateLimit"])
    assert match, response.headers["RateLimit"]
    return {"kind": match["kind"], "r": int(match["r"]), "t": int(match["t"])}


def policy(response: httpx.Response) -> dict[str, Any]:
    match = POLICY.match(response.headers["RateLimit-Policy"])
    assert match, response.headers["RateLimit-Policy"]
    return {"kind": match["kind"], "q": int(match["q"]), "w": int(match["w"])}


def assert_rate_limited(response: httpx.Response, kind: str) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1
    assert left(response)["kind"] == kind and left(response)["r"] == 0
    assert left(response)["t"] <= int(response.headers["Retry-After"])
    assert policy(response)["kind"] == kind


async def test_a_flood_of_creates_is_refused_while_another_clients_commands_answer(valkey):
    app = make_app(valkey, rate_limits=True, rates=tight(create=Rate(5, 60)))
    async with running(app), peer(app, "192.0.2.10") as flood, peer(app, "192.0.2.11") as player:
        table = await new_table(player, seats=2)

        async def create_many() -> list[httpx.Response]:
            answers = []
            for _ in range(40):
                answers.append(await flood.post("/v1/games", json=DANGER))
                await asyncio.sleep(0)
            return answers

        async def play() -> list[int]:
            statuses = []
            for _ in range(12):
                seat = (await table.state())["view"]["state"]["turn"]
                legal = (await table.state(seat))["legal"]
                statuses.append((await table.send(seat, legal[0])).status_code)
            return statuses

        created, played = await asyncio.gather(create_many(), play())
        assert [r.status_code for r in created[:5]] == [201] * 5
        assert [left(r)["r"] for r in created[:5]] == [4, 3, 2, 1, 0]
        assert all(policy(r) == {"kind": "create", "q": 5, "w": 60} for r in created)
        for refused in created[5:]:
            assert_rate_limited(refused, "create")
        assert played == [200] * 12
        # The other client has its own bucket: its table's game, and now this one.
        mine = await player.post("/v1/games", json=DANGER)
        assert mine.status_code == 201 and left(mine)["r"] == 3


async def test_the_limit_holds_across_two_app_processes_on_one_valkey(valkey):
    one = make_app(valkey, rate_limits=True, rates=tight(create=Rate(4, 60)))
    two = make_app(valkey, rate_limits=True, rates=tight(create=Rate(4, 60)))
    async with (
        running(one),
        running(two),
        peer(one, "192.0.2.20") as via_one,
        peer(two, "192.0.2.20") as via_two,
    ):
        answers = []
        for _ in range(5):
            answers.append(await via_one.post("/v1/games", json=DANGER))
            answers.append(await via_two.post("/v1/games", json=DANGER))
    assert [r.status_code for r in answers[:4]] == [201] * 4
    assert [left(r)["r"] for r in answers[:4]] == [3, 2, 1, 0]
    for refused in answers[4:]:
        assert_rate_limited(refused, "create")


async def test_reads_and_commands_are_decided_in_the_process_and_settled_for_every_process(
    valkey,
):
    """Each process decides a client's reads on its own copy of the bucket and settles with
    Valkey every DANGER_RATE_SETTLE_MS: a process that has not yet seen the client reads the
    bucket first, and one that holds an old copy learns at its next settlement."""
    rates = tight(read=Rate(6, 60))
    one = make_app(valkey, rate_limits=True, rates=rates, rate_settle_ms=50)
    two = make_app(valkey, rate_limits=True, rates=rates, rate_settle_ms=50)
    redis = await store_client(valkey.url)
    key = "dg:rate:read:192.0.2.25"
    try:
        async with (
            running(one),
            running(two),
            peer(one, "192.0.2.25") as via_one,
            peer(two, "192.0.2.25") as via_two,
        ):
            first = [await via_one.get("/v1/games") for _ in range(3)]
            assert [left(r)["r"] for r in first] == [5, 4, 3]
            await asyncio.sleep(0.2)
            assert await redis.pttl(key) > 0, "settled: the bucket in Valkey holds the three"
            # New to the client, the second process reads the bucket before deciding.
            second = [await via_two.get("/v1/games") for _ in range(4)]
            assert [left(r)["r"] for r in second[:3]] == [2, 1, 0]
            assert_rate_limited(second[3], "read")
            await asyncio.sleep(0.2)
            # The first process's copy is as it settled it: one more read on it, which its
            # next settlement corrects; the rate on top is one settlement's worth, no more.
            late = await via_one.get("/v1/games")
            assert late.status_code == 200 and left(late)["r"] == 2
            await asyncio.sleep(0.2)
            assert_rate_limited(await via_one.get("/v1/games"), "read")
            assert_rate_limited(await via_two.get("/v1/games"), "read")
    finally:
        await redis.aclose()


async def test_settling_off_or_copies_at_their_bound_ask_valkey_for_every_request(valkey):
    redis = await store_client(valkey.url)
    try:
        app = make_app(valkey, rate_limits=True, rates=tight(read=Rate(30, 60)), rate_buckets=2)
        async with running(app):
            for address in ("192.0.2.26", "192.0.2.27"):
                async with peer(app, address) as c:
                    assert (await c.get("/v1/games")).status_code == 200
            copies = app.state.limiter.ledger.copies
            assert len(copies) == 2
            # The process holds two copies: a third client is asked of Valkey at once.
            async with peer(app, "192.0.2.28") as c:
                answers = [await c.get("/v1/games") for _ in range(3)]
                assert [left(r)["r"] for r in answers] == [29, 28, 27]
                assert await redis.pttl("dg:rate:read:192.0.2.28") > 0
            assert len(copies) == 2
        app = make_app(valkey, rate_limits=True, rates=tight(read=Rate(30, 60)), rate_settle_ms=0)
        async with running(app), peer(app, "192.0.2.29") as c:
            assert app.state.limiter.ledger is None
            assert left(await c.get("/v1/games"))["r"] == 29
            assert await redis.pttl("dg:rate:read:192.0.2.29") > 0
    finally:
        await redis.aclose()


async def test_a_stopping_process_settles_and_idle_copies_are_let_go(valkey, monkeypatch):
    monkeypatch.setattr("service.http.guards.rate_ledger.IDLE_SECONDS", 0.3)
    redis = await store_client(valkey.url)
    try:
        rates = tight(read=Rate(30, 60))
        app = make_app(valkey, rate_limits=True, rates=rates, rate_settle_ms=5000)
        async with running(app), peer(app, "192.0.2.31") as c:
            for _ in range(4):
                await c.get("/v1/games")
            assert await redis.exists("dg:rate:read:192.0.2.31") == 0, "not settled yet"
        # Stopping, the process settled what it had admitted: another sees four taken.
        other = make_app(valkey, rate_limits=True, rates=tight(read=Rate(30, 60)))
        async with running(other), peer(other, "192.0.2.31") as c:
            assert left(await c.get("/v1/games"))["r"] == 25
            copies = other.state.limiter.ledger.copies
            assert "dg:rate:read:192.0.2.31" in copies
            await asyncio.sleep(0.5)  # settled, then idle past IDLE_SECONDS
            await other.state.limiter.ledger.settle()
            assert "dg:rate:read:192.0.2.31" not in copies
            assert left(await c.get("/v1/games"))["r"] == 24, "read again from Valkey"
    finally:
        await redis.aclose()


async def test_concurrent_first_requests_of_a_bucket_wait_for_one_read(valkey, monkeypatch):
    """A bucket new to the process is read once for all the requests that came for it at
    once; if that read fails, its own request fails and the next waiting one reads."""
    from redis.exceptions import ConnectionError as Lost

    from service.http.guards import rate_ledger

    class Counted:
        def __init__(self, script: Any, fail_first: bool) -> None:
            self.script, self.sha, self.source = script, script.sha, script.source
            self.calls, self.fail_first = 0, fail_first

        async def __call__(self, *args: Any) -> Any:
            self.calls += 1
            await asyncio.sleep(0.01)  # the others arrive meanwhile
            if self.fail_first and self.calls == 1:
                raise Lost("the store went away")
            return await self.script(*args)

    redis = await store_client(valkey.url)
    rate = Rate(30, 60)
    try:
        ledger = rate_ledger.Ledger(redis, time.time, 60.0, 10)
        counted = Counted(rate_ledger.SETTLE, fail_first=False)
        monkeypatch.setattr(rate_ledger, "SETTLE", counted)
        key = "dg:rate:read:192.0.2.33"
        taken = await asyncio.gather(*(ledger.take(key, rate) for _ in range(5)))
        assert counted.calls == 1
        assert sorted(left for _, left, _, _ in taken) == [25, 26, 27, 28, 29]
        failing = Counted(rate_ledger.SETTLE.script, fail_first=True)
        monkeypatch.setattr(rate_ledger, "SETTLE", failing)
        key = "dg:rate:read:192.0.2.34"
        outcomes = await asyncio.gather(
            *(ledger.take(key, rate) for _ in range(3)), return_exceptions=True
        )
        assert [type(o) for o in outcomes].count(Lost) == 1 and failing.calls == 2
        assert sorted(o[1] for o in outcomes if not isinstance(o, Exception)) == [28, 29]
    finally:
        await redis.aclose()


async def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(valkey):
    app = make_app(valkey, rate_limits=True, rates=tight(create=Rate(3, 60)))
    async with running(app), peer(app, "192.0.2.30") as spoofer:
        answers = [
            await spoofer.post(
                "/v1/games", json=DANGER, headers={"X-Forwarded-For": f"198.51.100.{n}"}
            )
            for n in range(8)
        ]
    assert [r.status_code for r in answers] == [201] * 3 + [429] * 5


async def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket(valkey):
    app = make_app(valkey, rate_limits=True, rates=tight(create=Rate(2, 60)), trusted_proxy=("*",))
    async with running(app), peer(app, "192.0.2.40") as proxy:

        async def create(forwarded: str) -> int:
            r = await proxy.post("/v1/games", json=DANGER, headers={"X-Forwarded-For": forwarded})
            return r.status_code

        assert [await create("198.51.100.41") for _ in range(3)] == [201, 201, 429]
        assert await create("198.51.100.42") == 201
        # What a client writes itself stands left of what the proxy appends: not the client.
        spoofed = [await create(f"203.0.113.{n}, 198.51.100.41") for n in range(3)]
        assert spoofed == [429, 429, 429]


async def test_only_the_listed_proxies_are_trusted(valkey):
    app = make_app(
        valkey,
        rate_limits=True,
        rates=tight(create=Rate(2, 60)),
        trusted_proxy=("10.0.0.0/8",),
    )
    async with running(app), peer(app, "192.0.2.50") as stranger, peer(app, "10.1.2.3") as lb:
        by_stranger = [
            (
                await stranger.post(
                    "/v1/games", json=DANGER, headers={"X-Forwarded-For": f"198.51.100.{n}"}
                )
            ).status_code
            for n in range(4)
        ]
        assert by_stranger == [201, 201, 429, 429]
        # Through two trusted hops (the balancer, then 10.0.0.7), the client is the hop before.
        chain = {"X-Forwarded-For": "203.0.113.9, 198.51.100.51, 10.0.0.7"}
        through = [(await lb.post("/v1/games", json=DANGER, headers=chain)).status_code]
        through += [(await lb.post("/v1/games", json=DANGER, headers=chain)).status_code]
        through += [(await lb.post("/v1/games", json=DANGER, headers=chain)).status_code]
        assert through == [201, 201, 429]
        other = {"X-Forwarded-For": "198.51.100.52, 10.0.0.7"}
        assert (await lb.post("/v1/games", json=DANGER, headers=other)).status_code == 201


async def test_every_kind_of_request_draws_on_its_own_bucket(valkey):
    app = make_app(valkey, rate_limits=True, rates=tight(stream=Rate(1, 60)))
    async with running(app), peer(app, "192.0.2.60") as c:
        game = (await c.post("/v1/games", json=DANGER)).json()
        gid = game["id"]
        calls = {
            ("POST", "/v1/games"): "create",
            ("POST", f"/v1/games/{gid}/players"): "join",
            ("POST", f"/v1/games/{gid}/start"): "command",
            ("POST", f"/v1/games/{gid}/commands"): "command",
            ("GET", "/v1/games"): "read",
            ("GET", f"/v1/games/{gid}"): "read",
            ("GET", f"/v1/games/{gid}/events"): "read",
            ("GET", f"/v1/games/{gid}/replay?seq=1"): "read",
            ("GET", f"/v1/games/{gid}/audit"): "read",
            ("GET", f"/v1/games/{gid}/export"): "read",
            ("GET", f"/v1/games/{gid}/rounds/1"): "read",
            ("GET", "/v1/players/nobody0000000000"): "read",
            ("POST", "/v1/players"): "register",
            ("POST", "/v1/audit"): "audit",
            ("GET", "/v1/games/no-such-game/stream"): "stream",
        }
        for (method, path), kind in calls.items():
            body = {"name": "Ann"} if path.endswith("players") else {"type": "draw"}
            r = await c.request(method, path, json=body if method == "POST" else None)
            assert r.status_code != 429, (path, r.text)
            assert left(r)["kind"] == kind and policy(r)["kind"] == kind, path
        assert_rate_limited(await c.get("/v1/games/no-such-game/stream"), "stream")
        for path in ("/health", "/schema/openapi.json", "/web/app.js", "/"):
            r = await c.get(path)
            assert r.status_code == 200
            assert left(r)["kind"] == "site" and policy(r)["kind"] == "site", path


async def test_an_idle_bucket_expires_and_a_lost_script_is_loaded_again(valkey):
    app = make_app(valkey, rate_limits=True, rates=tight(create=Rate(5, 60)))
    redis = await store_client(valkey.url)
    try:
        async with running(app), peer(app, "192.0.2.70") as c:
            assert (await c.post("/v1/games", json=DANGER)).status_code == 201
            # The key lives until the bucket is full again: one request's 60/5 s.
            assert 0 < await redis.pttl("dg:rate:create:192.0.2.70") <= 12_000
            await redis.script_flush()
            again = await c.post("/v1/games", json=DANGER)
            assert again.status_code == 201 and left(again)["r"] == 3
    finally:
        await redis.aclose()


async def test_turned_off_no_bucket_is_kept_and_no_header_sent(valkey):
    app = make_app(valkey, rate_limits=False, rates=tight(create=Rate(1, 60)))
    async with running(app), peer(app, "192.0.2.80") as c:
        answers = [await c.post("/v1/games", json=DANGER) for _ in range(5)]
    assert [r.status_code for r in answers] == [201] * 5
    assert all("RateLimit" not in r.headers for r in answers)
    # One kind turned off alone: the others still count.
    app = make_app(valkey, rate_limits=True, rates=tight(create=None))
    async with running(app), peer(app, "192.0.2.81") as c:
        answers = [await c.post("/v1/games", json=DANGER) for _ in range(30)]
        assert [r.status_code for r in answers] == [201] * 30
        assert "RateLimit" not in answers[-1].headers
        assert left(await c.get("/v1/games"))["kind"] == "read"


async def test_the_defaults_let_a_player_through_and_stop_a_flood(valkey):
    app = make_app(valkey, rate_limits=True, open_games_per_client=0)
    async with running(app), peer(app, "192.0.2.90") as c:
        table = await new_table(c, seats=3)
        for _ in range(30):  # a quick player: read, then send
            seat = (await table.state())["view"]["state"]["turn"]
            legal = (await table.state(seat))["legal"]
            assert (await table.send(seat, legal[0])).status_code == 200
        created = [(await c.post("/v1/games", json=DANGER)).status_code for _ in range(40)]
    assert 201 in created and created[-1] == 429
    assert created.count(201) == Rates().create.requests - 1  # new_table made one


async def test_browsers_may_read_the_rate_limit_fields_the_etag_and_the_preference(valkey):
    app = make_app(valkey, rate_limits=True, cors_origins=("https://bot.example",))
    async with running(app), peer(app, "192.0.2.95") as c:
        r = await c.get("/v1/games", headers={"Origin": "https://bot.example"})
    exposed = {h.strip().lower() for h in r.headers["access-control-expose-headers"].split(",")}
    assert {"ratelimit", "ratelimit-policy", "retry-after", "etag"} <= exposed
    assert {"x-request-id", "preference-applied"} <= exposed


# Open games ---------------------------------------------------------------------------


async def start(client: httpx.AsyncClient, created: httpx.Response) -> None:
    body = created.json()
    table = Table(client, body["id"], body["admin_token"])
    for n in range(body["seats"]):
        assert (
            await client.post(f"/v1/games/{table.id}/players", json={"name": f"p{n}"})
        ).is_success
    r = await client.post(
        f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
    )
    assert r.status_code == 200, r.text


async def test_a_client_may_hold_only_so_many_open_games(valkey):
    one = make_app(valkey, open_games_per_client=2)
    two = make_app(valkey, open_games_per_client=2)
    async with (
        running(one),
        running(two),
        peer(one, "198.51.100.10") as a,
        peer(two, "198.51.100.10") as a_elsewhere,
        peer(one, "198.51.100.11") as b,
    ):
        first = await a.post("/v1/games", json=DANGER)
        assert first.status_code == 201
        assert (await a_elsewhere.post("/v1/games", json=DANGER)).status_code == 201
        for client in (a, a_elsewhere):
            refused = await client.post("/v1/games", json=DANGER)
            assert refused.status_code == 409
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["code"] == "too_many_open_games"
        assert (await b.post("/v1/games", json=DANGER)).status_code == 201
        # A started game is no longer open: its place is free.
        await start(a, first)
        assert (await a_elsewhere.post("/v1/games", json=DANGER)).status_code == 201
        assert (await a.post("/v1/games", json=DANGER)).status_code == 409


async def test_a_refused_create_gives_its_place_back(valkey):
    app = make_app(valkey, open_games_per_client=2)
    sandboxed = {**DANGER, "options": {"seed": "00" * 16}}  # refused: not a sandbox server
    async with running(app), peer(app, "198.51.100.20") as c:
        assert [(await c.post("/v1/games", json=sandboxed)).status_code for _ in range(3)] == [
            403
        ] * 3
        statuses = [(await c.post("/v1/games", json=DANGER)).status_code for _ in range(3)]
    assert statuses == [201, 201, 409]


async def test_concurrent_creates_do_not_overshoot_the_cap(valkey):
    one = make_app(valkey, open_games_per_client=3)
    two = make_app(valkey, open_games_per_client=3)
    async with (
        running(one),
        running(two),
        peer(one, "198.51.100.30") as a,
        peer(two, "198.51.100.30") as a_elsewhere,
    ):
        answers = await asyncio.gather(
            *[(a if n % 2 else a_elsewhere).post("/v1/games", json=DANGER) for n in range(10)]
        )
    assert sorted(r.status_code for r in answers) == [201] * 3 + [409] * 7


# Settings and who the client is --------------------------------------------------------


def test_settings_read_from_the_environment(monkeypatch):
    for name in ("CREATE", "JOIN", "COMMAND", "READ", "STREAM"):
        monkeypatch.delenv(f"DANGER_RATE_{name}", raising=False)
    monkeypatch.setenv("DANGER_RATE_CREATE", "5/10")
    monkeypatch.setenv("DANGER_RATE_STREAM", "off")
    monkeypatch.setenv("DANGER_TRUSTED_PROXY", "10.0.0.0/8, 192.0.2.1")
    monkeypatch.setenv("DANGER_OPEN_GAMES_PER_CLIENT", "3")
    monkeypatch.setenv("DANGER_RATE_SETTLE_MS", "0")
    monkeypatch.setenv("DANGER_RATE_BUCKETS", "500")
    settings = Settings.from_env()
    assert settings.limits.rate_settle_ms == 0 and settings.limits.rate_buckets == 500
    assert settings.limits.rate_limits
    assert settings.rates.create == Rate(5, 10) and settings.rates.stream is None
    assert settings.rates.command == Rates().command
    assert settings.http.trusted_proxies == ("10.0.0.0/8", "192.0.2.1")
    assert settings.limits.open_games_per_client == 3
    monkeypatch.setenv("DANGER_RATE_LIMITS", "off")
    monkeypatch.setenv("DANGER_TRUSTED_PROXY", "1")
    monkeypatch.setenv("DANGER_OPEN_GAMES_PER_CLIENT", "off")
    settings = Settings.from_env()
    assert not settings.limits.rate_limits and settings.http.trusted_proxies == ("*",)
    assert settings.limits.open_games_per_client == 0
    for bad in ("5", "5/0", "x/10", "²/10", "-1/10"):
        monkeypatch.setenv("DANGER_RATE_CREATE", bad)
        with pytest.raises(ValueError, match="DANGER_RATE_CREATE"):
            Settings.from_env()
    monkeypatch.setenv("DANGER_RATE_CREATE", "5/10")
    monkeypatch.setenv("DANGER_TRUSTED_PROXY", "10.0.0.0/8, proxy.example")
    with pytest.raises(ValueError, match="DANGER_TRUSTED_PROXY"):
        Settings.from_env()
    monkeypatch.setenv("DANGER_TRUSTED_PROXY", "")
    for name, bad in (("DANGER_RATE_SETTLE_MS", "-5"), ("DANGER_RATE_BUCKETS", "0")):
        monkeypatch.setenv(name, bad)
        with pytest.raises(ValueError, match=name):
            Settings.from_env()
        monkeypatch.delenv(name)
    monkeypatch.setenv("DANGER_OPEN_GAMES_PER_CLIENT", "ten")
    with pytest.raises(ValueError, match="DANGER_OPEN_GAMES_PER_CLIENT"):
        Settings.from_env()


def scope(peer: str, *forwarded: str) -> dict[str, Any]:
    headers = [(b"x-forwarded-for", f.encode()) for f in forwarded]
    return {"client": (peer, 1234), "headers": headers}


def test_who_the_client_is():
    direct = Clients(())
    assert direct.of(scope("192.0.2.1", "198.51.100.1")) == "192.0.2.1"
    # One IPv6 host holds a /64: all of it is one client.
    assert direct.of(scope("2001:db8:1:2::5")) == direct.of(scope("2001:db8:1:2:ffff::9"))
    assert direct.of(scope("2001:db8:1:2::5")) == "2001:db8:1:2::/64"
    assert direct.of(scope("::ffff:192.0.2.7")) == "192.0.2.7"
    one_proxy = Clients(("*",))
    assert one_proxy.of(scope("10.0.0.1", "198.51.100.1")) == "198.51.100.1"
    assert one_proxy.of(scope("10.0.0.1", "203.0.113.1, 198.51.100.1")) == "198.51.100.1"
    assert one_proxy.of(scope("10.0.0.1", "203.0.113.1", "198.51.100.2:4711")) == "198.51.100.2"
    assert one_proxy.of(scope("10.0.0.1", "[2001:db8::1]:4711")) == "2001:db8::/64"
    assert one_proxy.of(scope("10.0.0.1")) == "10.0.0.1"
    assert one_proxy.of(scope("10.0.0.1", "unknown")) == "10.0.0.1"
    listed = Clients(("10.0.0.0/8",))
    assert listed.of(scope("10.0.0.1", "203.0.113.1, 198.51.100.1, 10.9.9.9")) == "198.51.100.1"
    assert listed.of(scope("192.0.2.1", "198.51.100.1")) == "192.0.2.1"


def test_the_clients_worked_out_are_remembered_within_a_bound(monkeypatch):
    monkeypatch.setattr("service.http.guards.clients.NAMES_KEPT", 3)
    clients = Clients(("*",))
    named = [clients.of(scope("10.0.0.1", f"198.51.100.{i}")) for i in range(10)]
    assert named == [f"198.51.100.{i}" for i in range(10)]
    assert len(clients._named) <= 3  # a proxy's headers, forged by its clients, hold no more
    again = scope("10.0.0.1", "198.51.100.9")
    assert clients.of(again) == "198.51.100.9" and again["danger.client"] == "198.51.100.9"


async def test_a_bucket_is_never_written_to_the_append_only_file(tmp_path):
    """Under `appendfsync always` a bucket written there would make every request wait for
    the disk before its handler runs, and grow the file by a write per request."""
    from service.infra.embedded import EmbeddedValkey

    own = EmbeddedValkey(tmp_path / "valkey")
    own.start()
    redis = await store_client(own.url)
    try:
        app = make_app(own, rate_limits=True, background=False, rates=tight(read=Rate(30, 60)))
        async with running(app), peer(app, "192.0.2.95") as c:
            await c.get("/v1/games/no-such-game")  # the app's own first writes are done
            before = (await redis.info("persistence"))["aof_current_size"]
            answers = [await c.get("/v1/games/no-such-game") for _ in range(40)]
            await asyncio.sleep(0.2)  # settled with Valkey (service/http/guards/rate_ledger.py)
            after = (await redis.info("persistence"))["aof_current_size"]
        assert [r.status_code for r in answers[:29]] == [404] * 29, "the bucket counts"
        assert_rate_limited(answers[-1], "read")
        assert after == before, f"{after - before} bytes written for 40 reads"
    finally:
        await redis.aclose()
        own.stop()
