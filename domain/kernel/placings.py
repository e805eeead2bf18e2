"""Where each side of a finished game placed: what ratings are computed from
(domain/ratings). A side is a seat alone, or a team; each game says what its sides are and
how they compare (its package's `placings`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import msgspec


class Side(msgspec.Struct, frozen=True):
    seats: tuple[int, ...]
    place: int
    """0: first. Sides that tie share a place, and the next place skips as many (1, 2, 2, 4)."""


def placings(
    sides: Sequence[Sequence[int]], keys: Sequence[tuple[Any, ...]], resigned: Collection[int]
) -> list[Side]:
    """The sides' places, by their keys (the greater the better). A seat that resigned
    cannot win (docs/rulings.md, "Resigning"): it leaves its side and is placed, alone, after
    every seat that did not; those that resigned tie among themselves."""
    ranked: list[tuple[tuple[int, ...], tuple[Any, ...]]] = []
    for side, key in zip(sides, keys, strict=True):
        left = tuple(s for s in side if s not in resigned)
        if left:
            ranked.append((left, (1, *key)))
    ranked += [((seat,), (0,)) for seat in sorted(resigned)]
    return [Side(seats, sum(1 for _, other in ranked if other > key)) for seats, key in ranked]
