"""The anchor: the least a command can cost on this stack. A bare Litestar endpoint decodes a
small msgspec body and does one Lua conditional XADD into the same server; no game, no
state, no hash chain. The game's command path is measured against it.

Served by uvicorn as the service is: `uvicorn bench.anchor:app --workers N`.
"""

from __future__ import annotations

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
