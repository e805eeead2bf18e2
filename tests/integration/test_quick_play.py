"""Quick play (service/play/quick_play.py): waiting players seated into a started game, each
told its game, seat and token; one request a player, cancelled, expired; and, under
concurrent requests on two API processes, 3x4 players in exactly three games, nobody
seated twice."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient

from service.http.guards import app_keys
from service.play.quick_play import Request, groups
from tests.conftest import make_app
from tests.players import bearer
from tests.stores import Store, store_client


def request(n: int, seats: tuple[int, int] = (4, 4), **more: Any) -> Request:
    fields: dict[str, Any] = {
        "id": f"qp_{n:03}",
        "player": f"p{n:015}",
        "name": f"P{n}",
        "kind": "danger",
        "min_seats": seats[0],
        "max_seats": seats[1],
        "options": "{}",
        "rating": 1500.0,
        "band": None,
        "client": f"c{n}",
        "entropy": "",
        "made_ms": n,
        "expires_ms": 10**12,
    }
    return Request(**{**fields, **more})


def test_twelve_requests_for_four_seats_make_three_games_oldest_first():
    made = groups([request(n) for n in range(12)], 100)
    assert [[r.id for r in g] for g in made] == [
        [f"qp_{n:03}" for n in range(k, k + 4)] for k in (0, 4, 8)
    ]
    assert groups([request(n) for n in range(3)], 100) == []  # not enough yet


def test_ranges_meet_options_must_agree_and_bands_widen_with_waiting():
    ranges = [request(0, (2, 4)), request(1, (3, 5)), request(2, (4, 4)), request(3, (2, 3))]
    assert [[r.id for r in g] for g in groups(ranges, 100)] == [["qp_000", "qp_001", "qp_003"]]
    other = [request(0, (2, 2)), request(1, (2, 2), options='{"x":1}')]
    assert groups(other, 100) == []
    far = [request(0, (2, 2), band=100.0, rating=1400.0), request(1, (2, 2), rating=1600.0)]
    assert groups(far, 0) == []  # 200 apart, a band of 100
    assert len(groups(far, 20_000)) == 1  # 20 s later: 100 + 5 a second covers it


class Hall:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.tokens: list[dict[str, str]] = []

    async def register(self, n: int) -> None:
        for k in range(n):
            address = {"X-Forwarded-For": f"198.51.100.{len(self.tokens) + 1}"}
            r = await self.client.post("/v1/players", json={"name": f"Q{k}"}, headers=address)
            assert r.status_code == 201, r.text
            self.tokens.append({**bearer(r.json()["token"]), **address})

    async def ask(self, player: int, **body: Any) -> Any:
        return await self.client.post(
            "/v1/quick-play",
            json={"game": "danger", "seats": 2, **body},
            headers=self.tokens[player],
        )


@pytest.fixture
async def hall(valkey) -> AsyncIterator[Hall]:
    """On the session's store: a cluster under `make test-cluster`."""
    app = make_app(valkey, trusted_proxy=("*",), quick_play_seconds=2)
    async with AsyncTestClient(app=app) as client:
        yield Hall(client)


async def test_two_waiting_players_are_seated_in_a_started_game_with_their_tokens(hall: Hall):
    await hall.register(2)
    first = await hall.ask(0)
    assert first.status_code == 201 and first.json()["status"] == "waiting", first.text
    second = await hall.ask(1)
    assert second.status_code == 201 and second.json()["status"] == "seated", second.text
    polled = await hall.client.get(
        f"/v1/quick-play/{first.json()['id']}?wait=5", headers=hall.tokens[0]
    )
    mine, theirs = polled.json()["seated"], second.json()["seated"]
    assert mine["game"] == theirs["game"] and {mine["seat"], theirs["seat"]} == {0, 1}
    game = await hall.client.get(f"/v1/games/{mine['game']}", headers=bearer(mine["token"]))
    view = game.json()["view"]
    assert game.json()["status"] == "active" and view["you"] == mine["seat"]
    assert {p["player"] for p in view["players"]} == {
        first.json()["player"],
        second.json()["player"],
    }
    other = await hall.client.get(f"/v1/quick-play/{first.json()['id']}", headers=hall.tokens[1])
    assert other.status_code == 403  # another player's request


async def test_one_request_a_player_cancelled_or_expired(hall: Hall):
    await hall.register(2)
    first = await hall.ask(0, seats={"min": 3, "max": 4})
    again = await hall.ask(0)
    assert again.status_code == 409 and again.json()["code"] == "already_waiting"
    url = f"/v1/quick-play/{first.json()['id']}"
    assert (await hall.client.delete(url, headers=hall.tokens[0])).status_code == 204
    assert (await hall.client.get(url, headers=hall.tokens[0])).json()["status"] == "cancelled"
    gone = await hall.client.delete(url, headers=hall.tokens[0])
    assert gone.status_code == 409 and gone.json()["code"] == "not_waiting"

    alone = await hall.ask(0, seats=3)
    assert alone.status_code == 201
    ended = await hall.client.get(
        f"/v1/quick-play/{alone.json()['id']}?wait=10", headers=hall.tokens[0]
    )
    assert ended.json()["status"] == "expired"  # DANGER_QUICK_PLAY_SECONDS: 2 here
    seen = (await hall.client.get("/metrics")).text  # what an operator sees
    assert 'danger_quick_play_requests_total{game="danger",outcome="expired"}' in seen
    assert 'danger_quick_play_requests_total{game="danger",outcome="cancelled"}' in seen
    nobody = await hall.client.post("/v1/quick-play", json={"game": "danger", "seats": 2})
    assert nobody.status_code == 401
    for seats in (9, 7):  # no game has 9 seats; Danger is played by 2 to 6
        wrong = await hall.ask(1, seats=seats)
        assert wrong.status_code == 422 and wrong.json()["code"] == "seats_out_of_range"
    sandbox = await hall.ask(1, options={"seed": "00" * 16})
    assert sandbox.status_code == 403 and sandbox.json()["code"] == "sandbox_only"


async def test_an_app_key_asks_for_the_players_it_registered_and_no_other(hall: Hall, valkey):
    redis = await store_client(valkey.url)
    try:
        (_, mine), (_, other) = [await app_keys.create(redis, n, {}) for n in ("app", "other")]
    finally:
        await redis.aclose()
    made = await hall.client.post("/v1/players", json={"name": "Wes"}, headers=bearer(mine))
    player = made.json()["id"]
    body = {"game": "danger", "seats": 2, "player": player}
    asked = await hall.client.post("/v1/quick-play", json=body, headers=bearer(mine))
    assert asked.status_code == 201 and asked.json()["player"] == player, asked.text
    url = f"/v1/quick-play/{asked.json()['id']}"
    assert (await hall.client.get(url, headers=bearer(other))).json()["code"] == "not_your_player"
    refused = await hall.client.post("/v1/quick-play", json=body, headers=bearer(other))
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_player"
    unnamed = await hall.client.post(
        "/v1/quick-play", json={"game": "danger", "seats": 2}, headers=bearer(mine)
    )
    assert unnamed.status_code == 422 and unnamed.json()["code"] == "player_missing"
    assert (await hall.client.delete(url, headers=bearer(mine))).status_code == 204


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[tuple[Store, list[str]]]:
    store = Store(tmp_path / "store", "--appendonly", "yes", "--appendfsync", "always").start()
    env = {
        **os.environ,
        "REDIS_URL": store.url,
        "DANGER_RATE_LIMITS": "off",
        "DANGER_OPEN_GAMES_PER_CLIENT": "0",
        "DANGER_STREAM_PROCESS": "off",
    }
    env.pop("DANGER_QUEUE_URL", None)
    ports = [_free_port(), _free_port()]
    apis = [
        subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--api-only", "--port", str(port)],
            env=env,
            stdout=(tmp_path / f"api{port}.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        deadline = time.monotonic() + 60
        for url in urls:
            while True:
                try:
                    if httpx.get(f"{url}/health", timeout=1).status_code in (200, 503):
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the API processes did not start"
                time.sleep(0.2)
        yield store, urls
    finally:
        for api in apis:
            api.terminate()
        for api in apis:
            api.wait(20)
        store.kill()


async def test_twelve_players_on_two_processes_make_exactly_three_games(two_processes):
    store, urls = two_processes
    clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in urls]
    try:
        tokens = []
        for n in range(12):
            r = await clients[n % 2].post("/v1/players", json={"name": f"R{n}"})
            tokens.append(bearer(r.json()["token"]))

        async def ask(n: int) -> str:
            r = await clients[n % 2].post(
                "/v1/quick-play", json={"game": "danger", "seats": 4}, headers=tokens[n]
            )
            assert r.status_code == 201, r.text
            return str(r.json()["id"])

        ids = await asyncio.gather(*(ask(n) for n in range(12)))

        async def seated(n: int) -> dict[str, Any]:
            for _ in range(30):  # the process whose request completes a group seats it
                r = await clients[n % 2].get(f"/v1/quick-play/{ids[n]}?wait=1", headers=tokens[n])
                if r.json()["status"] == "seated":
                    return dict(r.json()["seated"])
            raise AssertionError(f"request {n} was never seated")

        places = await asyncio.gather(*(seated(n) for n in range(12)))
        games = Counter(p["game"] for p in places)
        assert len(games) == 3 and set(games.values()) == {4}
        for game in games:
            seats = sorted(p["seat"] for p in places if p["game"] == game)
            assert seats == [0, 1, 2, 3]
            read = (await clients[0].get(f"/v1/games/{game}")).json()
            assert read["status"] == "active" and len(read["view"]["players"]) == 4
        redis = await store_client(store.url)
        try:
            made = [k async for k in redis.scan_iter(match="dg:{*}:game:*", _type="stream")]
            assert len(made) == 3  # no game made and left behind by a lost race
        finally:
            await redis.aclose()
    finally:
        for client in clients:
            await client.aclose()
