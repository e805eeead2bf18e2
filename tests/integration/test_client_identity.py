"""Who a client is, as `danger serve` names it: the peer, and X-Forwarded-For only from the
proxies DANGER_TRUSTED_PROXY lists. uvicorn's own proxy headers would trust any loopback peer's
header, so that a local process could name itself anew on every request."""

from __future__ import annotations

import signal

import httpx
import pytest
from litestar.testing import AsyncTestClient

from service.http.guards.app_keys import create as create_key
from tests.conftest import make_app
from tests.integration.test_restart import free_port, serve
from tests.stores import store_client

LIMITED = {
    "DANGER_RATE_LIMITS": "on",
    "DANGER_RATE_CREATE": "3/60",
    "DANGER_OPEN_GAMES_PER_CLIENT": "0",
}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_local_peer_cannot_name_itself_with_x_forwarded_for(tmp_path, workers):
    port = free_port()
    flags = ["--workers", "2"] if workers == 2 else []
    proc = serve(tmp_path / "data", port, *flags, settings=LIMITED)
    try:
        answers = [
            httpx.post(
                f"http://127.0.0.1:{port}/v1/games",
                json={"game": "danger", "seats": 3},
                headers={"X-Forwarded-For": f"198.51.100.{n}"},
            )
            for n in range(5)
        ]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    assert answers[-1].json()["code"] == "rate_limited"


def test_behind_a_listed_proxy_the_forwarded_client_is_the_client(tmp_path):
    port = free_port()
    proc = serve(tmp_path / "data", port, settings={**LIMITED, "DANGER_TRUSTED_PROXY": "127.0.0.1"})
    try:
        statuses = [
            httpx.post(
                f"http://127.0.0.1:{port}/v1/games",
                json={"game": "danger", "seats": 3},
                headers={"X-Forwarded-For": f"198.51.100.{n % 2}"},
            ).status_code
            for n in range(8)
        ]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert statuses == [201] * 6 + [429] * 2  # two clients, three creates each


async def test_an_idempotency_key_sent_with_an_app_key_is_that_app_keys_alone(valkey):
    """The record of a keyed create is named by the app key: another app (or an anonymous
    client at the same address) that sends the same Idempotency-Key gets a game of its own,
    never the first app's admin token."""
    redis = await store_client(valkey.url)
    try:
        _, first = await create_key(redis, "first", {})
        _, second = await create_key(redis, "second", {})
    finally:
        await redis.aclose()
    body = {"game": "danger", "seats": 3}
    async with AsyncTestClient(app=make_app(valkey)) as client:
        made = []
        for token in (first, second, None, first):
            headers = {"Idempotency-Key": "shared-key"}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            answer = await client.post("/v1/games", json=body, headers=headers)
            assert answer.status_code == 201, answer.text
            made.append((answer.json()["id"], answer.json()["admin_token"]))
    assert made[3] == made[0]  # the first app's retry
    assert len({m[0] for m in made[:3]}) == 3  # three owners, three games
