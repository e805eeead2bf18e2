"""Trimming the shard feeds.

A feed entry (`game, first, last`, added by the append) only tells its readers that a game
moved: the events themselves stay in the game's stream, and a rebuild reads those. Once
every consumer group of a feed has read and acknowledged an entry, it is of no further use
to them, and keeping it would let the feed grow with every command for ever.
"""

from __future__ import annotations

from collections.abc import Collection

from redis.asyncio import Redis
from redis.exceptions import ResponseError

EntryId = tuple[int, int]


def parse_id(value: bytes | str) -> EntryId:
    text = value.decode() if isinstance(value, bytes) else value
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


async def trim_point(redis: Redis, feed: str, groups: Collection[str]) -> EntryId | None:
    """The first entry some group may still need: the oldest one a group has delivered but not
    acknowledged, or else the one after its last delivered. None while one of `groups` has
    no group on the feed yet (it will read the feed from its start)."""
    try:
        infos = await redis.xinfo_groups(feed)
    except ResponseError:  # no such feed yet
        return None
    names = {_text(info["name"]) for info in infos}
    if not set(groups) <= names:
        return None
    point: EntryId | None = None
    for info in infos:  # every group, ours or not
        ms, seq = parse_id(info["last-delivered-id"])
        needed = (ms, seq + 1)
        if int(info.get("pending") or 0):
            oldest = (await redis.xpending(feed, _text(info["name"])))["min"]
            if oldest is not None:  # unless acknowledged since
                needed = min(needed, parse_id(oldest))
        point = needed if point is None else min(point, needed)
    return point


async def trim(redis: Redis, feed: str, groups: Collection[str], keep_since_ms: int) -> int:
    """Drop the entries of `feed` that every consumer group on it has read and acknowledged
    and that are older than `keep_since_ms` (by the server's clock, which made their ids);
    how many were dropped. A group only moves forward, so a point read a moment ago is
    still safe when the XTRIM runs."""
    point = await trim_point(redis, feed, groups)
    if point is None:
        return 0
    point = min(point, (keep_since_ms, 0))
    if point <= (0, 0):
        return 0
    # Exact, not `~`: an approximate trim only drops whole nodes of 100 entries.
    return int(await redis.xtrim(feed, minid=f"{point[0]}-{point[1]}", approximate=False))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
