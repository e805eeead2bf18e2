"""The operator's endpoints (/health, /metrics) and every other route outside /v1 are cheap
and bounded: /health answers from a snapshot, every route outside /v1 draws on a bucket of
its own, and /metrics can be kept behind a token."""

from __future__ import annotations

import asyncio
import time

from service.infra.config import Rate
from tests.api.test_rate_limits import tight
from tests.conftest import make_app, peer, running
from tests.stores import store_client


async def shard_reads(valkey) -> int:
    """XINFO GROUPS calls the store has answered: /health's walk over the shards' feeds."""
    async with await store_client(valkey.url) as redis:
        stats = await redis.info("commandstats")
    return int(stats.get("cmdstat_xinfo|groups", {}).get("calls", 0))


async def test_health_is_found_at_most_once_a_second_however_often_it_is_asked(valkey):
    app = make_app(valkey, background=False)
    async with running(app), peer(app, "10.9.8.1") as client:
        first = await client.get("/health")
        assert first.status_code in (200, 503) and first.json()["redis"] == "ok"
        await asyncio.sleep(1.1)
        before = await shard_reads(valkey)
        await client.get("/health")
        one_walk = await shard_reads(valkey) - before
        assert one_walk > 0
        before, began = await shard_reads(valkey), time.monotonic()
        answers = [await client.get("/health") for _ in range(30)]
        answers += await asyncio.gather(*(client.get("/health") for _ in range(10)))
        seconds = time.monotonic() - began
        walks = (await shard_reads(valkey) - before) / one_walk
        assert all(a.json()["redis"] == "ok" for a in answers)
        assert walks <= 1 + seconds, (walks, seconds)
        # An operator's fresh check is found for its request (open here, as the metrics are).
        before = await shard_reads(valkey)
        await client.get("/health", params={"fresh": "true"})
        assert await shard_reads(valkey) - before == one_walk


async def test_every_route_outside_v1_draws_on_the_site_bucket(valkey):
    app = make_app(valkey, background=False, rate_limits=True, rates=tight(site=Rate(4, 60)))
    async with running(app), peer(app, "10.9.8.2") as client:
        paths = ["/health", "/metrics", "/schema/openapi.json", "/web/app.js"]
        statuses = [(await client.get(path)).status_code for path in paths]
        assert 429 not in statuses
        for path in [*paths, "/", "/schema/swagger"]:
            r = await client.get(path)
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", path
            assert r.headers["RateLimit-Policy"] == '"site";q=4;w=60'
        # The API's own buckets are untouched.
        assert (await client.get("/v1/games")).status_code == 200
    async with running(app), peer(app, "10.9.8.3") as other:
        assert (await other.get("/health")).status_code != 429  # another client's bucket


async def test_metrics_behind_a_token_answer_only_its_bearer(valkey):
    secret = "metrics-" + "x" * 24
    app = make_app(valkey, background=False, metrics="token", metrics_token=secret)
    async with running(app), peer(app, "10.9.8.4") as client:
        r = await client.get("/metrics")
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
        r = await client.get("/metrics", headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401
        r = await client.get("/metrics", headers={"Authorization": f"Bearer {secret}"})
        assert r.status_code == 200 and "danger_http_request_duration_seconds" in r.text
        # The fresh health check is the operators' too; the snapshot is everyone's.
        r = await client.get("/health", params={"fresh": "true"})
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
        r = await client.get(
            "/health", params={"fresh": "true"}, headers={"Authorization": f"Bearer {secret}"}
        )
        assert r.status_code in (200, 503) and r.json()["redis"] == "ok"
        assert (await client.get("/health")).json()["redis"] == "ok"
    off = make_app(valkey, background=False, metrics="off")
    async with running(off), peer(off, "10.9.8.5") as client:
        assert (await client.get("/metrics")).status_code == 404
