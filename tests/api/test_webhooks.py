"""The webhooks API (/v1/webhooks) as an app key's holder uses it: only with a key, only its
own, bounded, a URL checked, paused and resumed, its secret rotated, its deliveries listed
and replayed."""

from __future__ import annotations

import msgspec
from litestar.testing import AsyncTestClient

from service.http.guards import app_keys
from service.play import webhook_deliveries
from tests.conftest import make_app
from tests.players import bearer
from tests.stores import store_client

PUBLIC = "https://93.184.216.34/hooks"  # an address on the internet, no name to resolve
BODY = {"url": PUBLIC, "events": ["game.finished"]}


async def test_a_keys_webhooks_are_its_own_and_bounded(valkey):
    redis = await store_client(valkey.url)
    (_, mine), (_, theirs) = [await app_keys.create(redis, n, {}) for n in ("mine", "theirs")]
    async with AsyncTestClient(app=make_app(valkey, webhooks_per_key=2)) as client:
        r = await client.post("/v1/webhooks", json=BODY)
        assert r.status_code == 401 and r.json()["code"] == "key_missing"
        r = await client.post("/v1/webhooks", json=BODY, headers=bearer("dhk_nosuchkey00_x"))
        assert r.status_code == 401 and r.json()["code"] == "key_invalid"

        made = await client.post("/v1/webhooks", json=BODY, headers=bearer(mine))
        assert made.status_code == 201, made.text
        hook = made.json()
        assert hook["secret"].startswith("whsec_") and hook["events"] == ["game.finished"]
        assert (
            await client.post("/v1/webhooks", json=BODY, headers=bearer(mine))
        ).status_code == 201
        r = await client.post("/v1/webhooks", json=BODY, headers=bearer(mine))
        assert r.status_code == 409 and r.json()["code"] == "too_many_webhooks"

        listed = (await client.get("/v1/webhooks", headers=bearer(mine))).json()
        assert len(listed) == 2 and all("secret" not in h for h in listed)
        assert (await client.get("/v1/webhooks", headers=bearer(theirs))).json() == []
        for method in ("GET", "PATCH", "DELETE"):
            r = await client.request(
                method, f"/v1/webhooks/{hook['id']}", headers=bearer(theirs),
                json={"paused": True} if method == "PATCH" else None,
            )  # fmt: skip
            assert r.status_code == 404 and r.json()["code"] == "unknown_webhook", method
        r = await client.delete(f"/v1/webhooks/{hook['id']}", headers=bearer(mine))
        assert r.status_code == 204
        left = (await client.get("/v1/webhooks", headers=bearer(mine))).json()
        assert len(left) == 1
        # None left behind: a session store with an endpoint has every app hear its games.
        await client.delete(f"/v1/webhooks/{left[0]['id']}", headers=bearer(mine))
    await redis.aclose()


async def test_a_url_it_may_not_reach_is_refused(valkey):
    redis = await store_client(valkey.url)
    _, token = await app_keys.create(redis, "urls", {})
    async with AsyncTestClient(app=make_app(valkey)) as client:
        for url in (
            "http://127.0.0.1:8080/hooks",
            "http://169.254.169.254/latest",
            "ftp://example.com/x",
        ):
            r = await client.post("/v1/webhooks", json={**BODY, "url": url}, headers=bearer(token))
            assert r.status_code == 422 and r.json()["code"] == "invalid_webhook_url", url
        r = await client.post(
            "/v1/webhooks", json={**BODY, "events": ["game.won"]}, headers=bearer(token)
        )
        assert r.status_code == 400 and r.json()["code"] == "invalid_body"
    await redis.aclose()


async def test_pause_resume_rotate_and_replay(valkey):
    redis = await store_client(valkey.url)
    _, token = await app_keys.create(redis, "changes", {})
    async with AsyncTestClient(app=make_app(valkey)) as client:
        hook = (await client.post("/v1/webhooks", json=BODY, headers=bearer(token))).json()
        path = f"/v1/webhooks/{hook['id']}"
        r = await client.patch(
            path, json={"paused": True, "games": ["danger"]}, headers=bearer(token)
        )
        assert r.json()["paused"] == "paused by its owner" and r.json()["games"] == ["danger"]
        r = await client.patch(path, json={"paused": False}, headers=bearer(token))
        assert "paused" not in r.json()

        rotated = (await client.post(f"{path}/secret", headers=bearer(token))).json()
        assert rotated["secret"] != hook["secret"] and rotated["secret"].startswith("whsec_")

        # A delivery given up, then sent again by hand.
        given_up = webhook_deliveries.Delivery(
            "msg_" + "a" * 24, hook["id"], "game.finished", "somegame0000", 9,
            msgspec.json.encode({"type": "game.finished"}).decode(), 0, status="failed", attempts=3,
        )  # fmt: skip
        await redis.set(
            webhook_deliveries.record_key(hook["id"], given_up.id), msgspec.json.encode(given_up)
        )
        await redis.zadd(webhook_deliveries.finished_key(hook["id"]), {given_up.id: 1})
        listed = (await client.get(f"{path}/deliveries", headers=bearer(token))).json()
        assert [d["status"] for d in listed] == ["failed"]
        r = await client.post(f"{path}/deliveries/{given_up.id}/replay", headers=bearer(token))
        assert r.status_code == 200 and r.json()["status"] == "queued"
        r = await client.post(f"{path}/deliveries/{given_up.id}/replay", headers=bearer(token))
        assert r.status_code == 409 and r.json()["code"] == "delivery_queued"
        r = await client.post(f"{path}/deliveries/msg_{'b' * 24}/replay", headers=bearer(token))
        assert r.status_code == 404 and r.json()["code"] == "unknown_delivery"
        await client.delete(path, headers=bearer(token))
    await redis.aclose()
