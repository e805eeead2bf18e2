"""App keys on the real server: `DANGER_AUTH=keys` refuses a create without a good key, a
revoked key stops working at once in every process, limits and the open-games cap are kept
per key, and `danger keys` manages them with only their hashes stored."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx

from service.http.guards import app_keys
from service.infra.config import Rate
from service.infra.embedded import EmbeddedValkey
from tests.api.test_rate_limits import tight
from tests.conftest import make_app, on_socket, peer, running
from tests.players import bearer, first_to_act, new_table
from tests.processes import run_cli
from tests.stores import store_client

DANGER = {"game": "danger", "seats": 2}


def danger_keys(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run_cli("keys", *args, **env)


def token_in(printed: str) -> str:
    return next(line.split()[1] for line in printed.splitlines() if line.startswith("key:"))


async def test_keys_mode_creates_only_with_a_good_key_and_a_revoked_one_stops_at_once(valkey):
    first, second = make_app(valkey, auth="keys"), make_app(valkey, auth="keys")
    made = danger_keys("create", "Table Top Inc.", REDIS_URL=valkey.url)
    assert made.returncode == 0, made.stderr
    token = token_in(made.stdout)
    async with (
        running(first),
        running(second),
        peer(first, "10.9.0.1") as one,
        peer(second, "10.9.0.1") as other,
    ):
        r = await one.post("/v1/games", json=DANGER)
        assert r.status_code == 401 and r.json()["code"] == "key_missing"
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
        forged = token[:-4] + ("aaaa" if not token.endswith("aaaa") else "bbbb")
        r = await one.post("/v1/games", json=DANGER, headers=bearer(forged))
        assert r.status_code == 401 and r.json()["code"] == "key_invalid"
        for client in (one, other):  # any process
            r = await client.post("/v1/games", json=DANGER, headers=bearer(token))
            assert r.status_code == 201, r.text
        game = r.json()["id"]
        # Joining needs no key; the admin token starts the game as before.
        r = await other.post(f"/v1/games/{game}/players", json={"name": "Ann"})
        assert r.status_code == 201

        key_id = next(x.split()[1] for x in made.stdout.splitlines() if x.startswith("id:"))
        revoked = danger_keys("revoke", key_id, REDIS_URL=valkey.url)
        assert revoked.returncode == 0, revoked.stderr
        for client in (one, other):
            r = await client.post("/v1/games", json=DANGER, headers=bearer(token))
            assert r.status_code == 401 and r.json()["code"] == "key_revoked"
        listed = danger_keys("list", REDIS_URL=valkey.url)
        line = next(x for x in listed.stdout.splitlines() if key_id in x)
        assert line.endswith("Table Top Inc.") and line.split()[2] != "-"  # revoked, and when
        assert token not in listed.stdout


async def test_only_the_hash_of_a_key_is_stored(valkey):
    redis = await store_client(valkey.url)
    try:
        key, token = await app_keys.create(redis, "hashed", {})
        stored = b"".join(
            [k + v for k, v in (await redis.hgetall(f"dg:{{keys}}:key:{key.id}")).items()]
        )
        assert token.encode() not in stored and token.split("_", 2)[2].encode() not in stored
    finally:
        await redis.aclose()


async def test_limits_and_the_open_games_cap_are_kept_per_key(valkey):
    app = make_app(
        valkey, rate_limits=True, rates=tight(create=Rate(3, 60)), open_games_per_client=2
    )
    redis = await store_client(valkey.url)
    try:
        _, small = await app_keys.create(redis, "small", {"create": Rate(1, 60)})
        _, usual = await app_keys.create(redis, "usual", {})
    finally:
        await redis.aclose()
    async with running(app), peer(app, "10.9.0.2") as client:
        # The key's own rate replaces the process's, under the key's name, not the address's.
        r = await client.post("/v1/games", json=DANGER, headers=bearer(small))
        assert r.status_code == 201 and r.headers["RateLimit-Policy"] == '"create";q=1;w=60'
        r = await client.post("/v1/games", json=DANGER, headers=bearer(small))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        # Another key from the same address has a bucket of its own, and so has the address.
        for _ in range(2):
            r = await client.post("/v1/games", json=DANGER, headers=bearer(usual))
            assert r.status_code == 201 and r.headers["RateLimit-Policy"] == '"create";q=3;w=60'
        r = await client.post("/v1/games", json=DANGER, headers=bearer(usual))
        assert r.status_code == 409 and r.json()["code"] == "too_many_open_games"
        r = await client.post("/v1/games", json=DANGER)
        assert r.status_code == 201


async def test_in_open_mode_no_key_is_needed_but_a_bad_one_is_refused(valkey):
    app = make_app(valkey)
    async with running(app), peer(app, "10.9.0.3") as client:
        assert (await client.post("/v1/games", json=DANGER)).status_code == 201
        r = await client.post("/v1/games", json=DANGER, headers=bearer("dhk_nosuchkey000_x"))
        assert r.status_code == 401 and r.json()["code"] == "key_invalid"
        # Elsewhere a bearer token is a seat's or the admin's, as before.
        r = await client.get("/v1/games?status=open")
        assert r.status_code == 200


def test_danger_keys_reaches_the_running_embedded_server_and_says_what_it_needs(tmp_path: Path):
    server = EmbeddedValkey(tmp_path / "data")
    server.start()
    try:
        made = danger_keys("create", "local", DANGER_DATA_DIR=str(tmp_path / "data"))
        assert made.returncode == 0, made.stderr
        assert token_in(made.stdout).startswith("dhk_")
        assert "cannot be shown again" in made.stdout
        listed = danger_keys("list", DANGER_DATA_DIR=str(tmp_path / "data"))
        assert "local" in listed.stdout
        unknown = danger_keys("revoke", "nosuchkey000", DANGER_DATA_DIR=str(tmp_path / "data"))
        assert unknown.returncode == 1 and "no key 'nosuchkey000'" in unknown.stderr
    finally:
        server.stop()
    assert danger_keys("create", DANGER_DATA_DIR=str(tmp_path / "data")).returncode == 2
    bad = danger_keys("create", "x", "--rate", "create=lots", DANGER_DATA_DIR=str(tmp_path))
    assert bad.returncode == 2 and "requests/seconds" in bad.stderr


async def test_an_app_key_reads_whatever_a_spectator_reads(valkey):
    """An app sending its key with every request reads every game, stream and player page
    as anyone does (a spectator: no seat's hidden cards), and is refused nothing."""
    app = make_app(valkey, background=False)
    redis = await store_client(valkey.url)
    try:
        _, key = await app_keys.create(redis, "reader", {})
    finally:
        await redis.aclose()
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        r = await http.post("/v1/players", json={"name": "Reader"})
        player = r.json()["id"]
        table = await new_table(http, seats=2, players=[r.json()["token"]])
        seat, legal = await first_to_act(table)
        assert (await table.send(seat, legal[0])).status_code == 200
        reads = [
            f"/v1/games/{table.id}",
            f"/v1/games/{table.id}/events",
            f"/v1/games/{table.id}/replay?seq=3",
            f"/v1/games/{table.id}/export",
            f"/v1/games/{table.id}/audit",
            "/v1/games?status=active",
            f"/v1/players/{player}",
            f"/v1/players/{player}/games",
            f"/v1/players/{player}/games/export",
            "/v1/keys",
        ]
        for path in reads:
            anyone = await http.get(path)
            keyed = await http.get(path, headers=bearer(key))
            assert anyone.status_code == 200, (path, anyone.text)
            assert keyed.status_code == 200, (path, keyed.text)
            if "status=" not in path:  # the lobby may show other tests' games meanwhile
                assert keyed.content == anyone.content, path  # no worker: nothing moves
        head = await http.head(f"/v1/games/{table.id}/stream", headers=bearer(key))
        assert head.status_code == 200, head.text
        async with http.stream(
            "GET", f"/v1/games/{table.id}/stream", headers=bearer(key)
        ) as stream:
            assert stream.status_code == 200
            first = await anext(stream.aiter_lines())
            assert first.startswith(("id:", "event:", "data:", ":")), first
        # A write is still no app key's: a command needs a seat's token.
        r = await table.client.post(
            f"/v1/games/{table.id}/commands", json=legal[0], headers=bearer(key)
        )
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
