"""Trimming the shard feeds.

A feed entry (`game, first, last`, added by the append) only tells its readers that a game
moved: the events themselves stay in the game's stream, and a rebuild reads those. Once
every consumer group of a feed has read and acknowledged an entry, it is of no further use
to them, and keeping it would let the feed grow with every command for ever.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .cluster import Store, in_slices

EntryId = tuple[int, int]


def parse_id(value: bytes | str) -> EntryId:
    text = value.decode() if isinstance(value, bytes) else value
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


async def trim_points(
    redis: Store, feeds: list[str], groups: Collection[str]
) -> dict[str, EntryId | None]:
    """Per feed, the first entry some group may still need: the oldest one a group has
    delivered but not acknowledged, or else the one after its last delivered. None while one
    of `groups` has no group on the feed yet (it will read the feed from its start). A few
    round trips for any number of feeds."""
    found = await in_slices(redis, feeds, lambda pipe, feed: pipe.xinfo_groups(feed), False)
    infos = dict(zip(feeds, found, strict=True))
    pending = [
        (feed, _text(info["name"]))
        for feed, found in infos.items()
        if not isinstance(found, Exception)
        for info in found
        if int(info.get("pending") or 0)
    ]
    firsts = await in_slices(redis, pending, lambda pipe, fg: pipe.xpending(*fg))
    oldest = {key: reply["min"] for key, reply in zip(pending, firsts, strict=True)}
    points: dict[str, EntryId | None] = {}
    for feed, found in infos.items():
        points[feed] = None
        if isinstance(found, Exception):  # no such feed yet
            continue
        names = {_text(info["name"]) for info in found}
        if not set(groups) <= names:
            continue
        point: EntryId | None = None
        for info in found:  # every group, ours or not
            ms, seq = parse_id(info["last-delivered-id"])
            needed = (ms, seq + 1)
            first = oldest.get((feed, _text(info["name"])))
            if first is not None:  # unless acknowledged since
                needed = min(needed, parse_id(first))
            point = needed if point is None else min(point, needed)
        points[feed] = point
    return points


async def trim_all(
    redis: Store, feeds: list[str], groups: Collection[str], keep_since_ms: int
) -> int:
    """Drop the entries of each of `feeds` that every consumer group on it has read and
    acknowledged and that are older than `keep_since_ms` (by the server's clock, which made
    their ids); how many were dropped. A group only moves forward, so a point read a moment
    ago is still safe when the XTRIM runs."""
    cuts = {}
    for feed, point in (await trim_points(redis, feeds, groups)).items():
        if point is None:
            continue
        point = min(point, (keep_since_ms, 0))
        if point > (0, 0):
            cuts[feed] = point
    if not cuts:
        return 0
    def add(pipe: Any, cut: tuple[str, EntryId]) -> None:
        feed, (ms, seq) = cut
        # Exact, not `~`: an approximate trim only drops whole nodes of 100 entries.
        pipe.xtrim(feed, minid=f"{ms}-{seq}", approximate=False)

    return sum(int(n) for n in await in_slices(redis, list(cuts.items()), add))


async def trim(redis: Store, feed: str, groups: Collection[str], keep_since_ms: int) -> int:
    """`trim_all` of one feed."""
    return await trim_all(redis, [feed], groups, keep_since_ms)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
