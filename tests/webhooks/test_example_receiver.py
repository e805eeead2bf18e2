"""examples/webhook_receiver.py, run as its docstring says, hears a key's game from the
service's worker: every delivery verified by the SDK and printed once; a delivery signed with
another secret is refused with a 400."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from pathlib import Path

import httpx
from danger_hall.webhooks import sign

from service.http.guards import app_keys
from service.play import webhooks
from tests.webhooks.test_delivery import keyed_game, serving

RECEIVER = Path(__file__).parents[2] / "examples" / "webhook_receiver.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def started(port: int, secret: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(RECEIVER),
        "--secret",
        secret,
        "--port",
        str(port),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 20)
    assert b"listening on" in line
    return process


async def test_the_example_receiver_prints_each_verified_event_of_a_keys_game(tmp_path: Path):
    port = free_port()
    async with serving(tmp_path) as (client, redis):
        key, token = await app_keys.create(redis, "example", {})
        endpoint = await webhooks.add(
            redis,
            key.id,
            f"http://127.0.0.1:{port}/hooks",
            ["game.created", "game.started", "game.finished"],
            [],
            0,
            5,
        )
        process = await started(port, endpoint.signing(0)[0])
        try:
            table = await keyed_game(client, token)
            assert process.stdout is not None
            lines: list[str] = []
            while not any(line.startswith("game.finished") for line in lines):
                raw = await asyncio.wait_for(process.stdout.readline(), 60)
                lines.append(raw.decode())
            assert [line.split()[0] for line in lines] == [
                "game.created",
                "game.started",
                "game.finished",
            ]
            assert all(f"{table.id} seq " in line for line in lines)

            body = b'{"type":"game.finished","timestamp":"2026-01-01T00:00:00Z","data":{}}'
            now = int(time.time())
            forged = sign("whsec_" + "A" * 32, "msg_forged", now, body)
            async with httpx.AsyncClient() as http:
                answer = await http.post(
                    f"http://127.0.0.1:{port}/hooks",
                    content=body,
                    headers={
                        "webhook-id": "msg_forged",
                        "webhook-timestamp": str(now),
                        "webhook-signature": forged,
                    },
                )
            assert answer.status_code == 400
        finally:
            process.terminate()
            await process.wait()
        await webhooks.remove(redis, key.id, endpoint.id)
