"""The anchor: the least a command can cost on this stack. A bare Litestar endpoint decodes a
small msgspec body and does one Lua conditional XADD into the same server; no game, no
state, no hash chain. The game's command path is measured against it.

Served by uvicorn as the service is, on the same loop and HTTP parser and on a socket bound
as the service binds it (Nagle's algorithm off on every connection, service/infra/listening.py):
`python -m bench.anchor --port P --workers N --loop L --http H`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
from litestar import Litestar, post
from litestar.datastructures import State
from redis.asyncio import Redis

# Append if the stream holds exactly the expected number of entries, as the service's
# append checks the expected seq.
APPEND = """
local n = redis.call('XLEN', KEYS[1])
if n ~= tonumber(ARGV[1]) then return -1 - n end
redis.call('XADD', KEYS[1], '0-' .. (n + 1), 'e', ARGV[2])
return n + 1
"""


class Move(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    expected: int
    stack: int | None = None


class Appended(msgspec.Struct, frozen=True):
    seq: int


@post("/anchor/{stream:str}", status_code=200)
async def anchor(state: State, stream: str, data: Move) -> Appended:
    seq = await state.append(keys=[f"anchor:{stream}"], args=[data.expected, data.type])
    return Appended(seq=int(seq))


@asynccontextmanager
async def lifespan(app: Litestar) -> AsyncIterator[None]:
    redis = Redis.from_url(os.environ["REDIS_URL"])
    app.state.append = redis.register_script(APPEND)
    try:
        yield
    finally:
        await redis.aclose()


app = Litestar(route_handlers=[anchor], lifespan=[lifespan], debug=False)


if __name__ == "__main__":
    from service.infra.listening import TcpConfig, serve_processes

    parser = argparse.ArgumentParser(prog="bench.anchor", description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--loop", default="auto")
    parser.add_argument("--http", default="auto")
    args = parser.parse_args()
    serve_processes(
        TcpConfig(
            "bench.anchor:app",
            host="127.0.0.1",
            port=args.port,
            workers=args.workers,
            loop=args.loop,
            http=args.http,
            log_level="warning",
            access_log=False,
        )
    )
