"""Webhook deliveries one worker's sender sustains against a receiver on loopback, beside an
anchor in the same run: the same receiver answering plain HTTP POSTs sent one at a time per
connection by httpx, as the sender sends them, with no store, signing or queue. The
sender's figure is `deliveries_per_s`; the ratio to the anchor is what to compare between
runs on a shared machine.

    .venv/bin/python -m bench.webhooks [--endpoints 20] [--per-endpoint 100]

`--endpoints` endpoints of one app key, each with `--per-endpoint` deliveries queued, are
drained by one Sender (service/jobs/webhook_sender.py, `in_flight` 32: one delivery at a
time per endpoint, so the endpoints are what runs at once); the embedded Valkey in a
temporary directory; loopback only (DANGER_WEBHOOK_PRIVATE).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path

import httpx
import msgspec

from service.infra.clock import StoreClock
from service.infra.config import Webhooks
from service.infra.connections import open_store
from service.infra.embedded import EmbeddedValkey
from service.jobs.webhook_sender import Sender
from service.play import webhook_deliveries, webhooks


class Receiver:
    """Counts POSTs and answers 204 at once (HTTP/1.1, keep-alive)."""

    def __init__(self) -> None:
        self.count = 0
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                self.count += 1
                writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            writer.close()


async def anchor(url: str, endpoints: int, each: int, body: bytes) -> float:
    """Plain POSTs a second: `endpoints` tasks, each sending `each` one after another."""
    async with httpx.AsyncClient(follow_redirects=False, trust_env=False) as http:

        async def one() -> None:
            for _ in range(each):
                (await http.post(url, content=body)).raise_for_status()

        began = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(endpoints)))
        return endpoints * each / (time.perf_counter() - began)


async def sender_rate(valkey_url: str, url: str, endpoints: int, each: int, body: str) -> float:
    redis = await open_store(valkey_url, 16)
    clock = StoreClock(redis)
    await clock.refresh(force=True)
    made = [
        await webhooks.add(redis, "benchkey0000", url, ["game.finished"], [], 0, endpoints)
        for _ in range(endpoints)
    ]
    queued = [
        webhook_deliveries.Delivery(
            webhook_deliveries.delivery_id(e.id, "benchgame000", n, "game.finished"),
            e.id,
            "game.finished",
            "benchgame000",
            n,
            body,
            0,
        )
        for e in made
        for n in range(each)
    ]
    await webhook_deliveries.queue(redis, queued, 0, len(queued))
    sender = Sender(redis, clock, Webhooks(private=True))
    began = time.perf_counter()
    task = asyncio.create_task(sender.run())
    while await redis.zcard(webhook_deliveries.DUE):
        await asyncio.sleep(0.01)
    elapsed = time.perf_counter() - began
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    left = sum([await redis.zcard(webhook_deliveries.queue_key(e.id)) for e in made])
    assert left == 0, f"{left} deliveries were not sent"
    await redis.aclose()
    return len(queued) / elapsed


async def run(endpoints: int, each: int) -> dict[str, float]:
    receiver = Receiver()
    await receiver.start()
    url = f"http://127.0.0.1:{receiver.port}/hooks"
    body = msgspec.json.encode(
        {"type": "game.finished", "timestamp": "2026-12-06T12:00:00.000Z",
         "data": {"game": "benchgame000", "kind": "danger", "seq": 1, "winners": [0]}}
    ).decode()  # fmt: skip
    data = Path(tempfile.mkdtemp(prefix="danger-bench-webhooks-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    try:
        before = await anchor(url, endpoints, each, body.encode())
        sent = await sender_rate(valkey.url, url, endpoints, each, body)
        after = await anchor(url, endpoints, each, body.encode())
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    plain = (before + after) / 2
    return {
        "deliveries_per_s": round(sent),
        "anchor_posts_per_s": round(plain),
        "ratio": round(sent / plain, 3),
        "endpoints": endpoints,
        "deliveries": endpoints * each,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.webhooks")
    parser.add_argument("--endpoints", type=int, default=20)
    parser.add_argument("--per-endpoint", type=int, default=100)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.endpoints, args.per_endpoint))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
