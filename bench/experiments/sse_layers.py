"""What the framework adds to each write of a stream: the same frames sent through a Litestar
SSE route behind the service's own outer layers (service/http/observe.py,
service/live/foreground.py), and by a bare ASGI app, both to a `send` that only counts, in one
process (a few seconds).

    .venv/bin/python -m bench.experiments.sse_layers [--frames 200000]

It leaves out what both pay alike on a real connection: uvicorn's send, the task switch that
wakes a stream, the socket write and the kernel's path (about 38 µs a write in all with
2,000 streams, docs/performance.md, "Thousands of live streams"). The rate limit's and the
app key's middlewares are not in the chain either; each adds one more wrapper of `send`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import AsyncGenerator
from typing import Any

from litestar import Litestar, get
from litestar.response import ServerSentEvent

from service.http.observe import observe
from service.live.foreground import Foreground
from service.live.streams import Frame

FRAME = Frame(frame=b'id: 7\nevent: card_drawn\ndata: {"seq":7,"type":"card_drawn"}\n\n' * 3)


def scope(path: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"bench")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 2),
        "state": {},
    }


async def messages(frames: int) -> AsyncGenerator[Frame, None]:
    for _ in range(frames):
        yield FRAME


class Counted:
    """A `send` that counts the body parts and notes the answer's end."""

    def __init__(self) -> None:
        self.sent = 0
        self.ended = asyncio.Event()

    async def __call__(self, message: Any) -> None:
        if message["type"] == "http.response.body":
            self.sent += 1
            if not message.get("more_body"):
                self.ended.set()


async def through_the_service(frames: int) -> int:
    @get("/v1/games/g/stream", sync_to_thread=False)
    def stream() -> ServerSentEvent:
        return ServerSentEvent(messages(frames))

    app, send = Litestar([stream], logging_config=None), Counted()

    async def receive() -> Any:
        await send.ended.wait()  # as uvicorn's: the client is gone once the answer has ended
        return {"type": "http.disconnect"}

    async def observed(s: Any, r: Any, c: Any) -> None:
        await observe(s, r, c, app, lambda _: "bench")

    await Foreground().serve(scope("/v1/games/g/stream"), receive, send, observed)
    return send.sent


async def bare(frames: int) -> int:
    send = Counted()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    async for frame in messages(frames):
        await send({"type": "http.response.body", "body": frame.frame, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})
    return send.sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, run in (("litestar_and_layers", through_the_service), ("bare_asgi", bare)):
            began = time.perf_counter()
            sent = asyncio.run(run(args.frames))
            us = (time.perf_counter() - began) / args.frames * 1e6
            assert sent >= args.frames, (name, sent)
            best[name] = min(best.get(name, us), us)
    for name, us in best.items():
        print(f"{name:22s} {us:6.2f} µs a frame (best of {args.rounds})")
    added = best["litestar_and_layers"] - best["bare_asgi"]
    print(f"the framework and the service's layers add {added:.2f} µs a write")
    print(json.dumps({"us_per_frame": {k: round(v, 3) for k, v in best.items()}}))


if __name__ == "__main__":
    main()
