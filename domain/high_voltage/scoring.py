"""The Personal Scoring Zone: zones of a seat's won cards, recomputed after every trick."""

from __future__ import annotations

from typing import Literal

import msgspec

from .cards import colour, colour_name, points


class ColourZones(msgspec.Struct, frozen=True):
    colour: str
    safe: int | None
    """ "The lowest card of each color (not consecutive to other cards) scores points." """
    danger: list[int]
    """Not the lowest of their colour, not consecutive: no points, but could in the future."""
    catastrophic: list[int]
    """ "Consecutive cards of each color are cancelled and do not score." """
    points: int


class CardZone(msgspec.Struct, frozen=True):
    card: int
    zone: Literal["safe", "danger", "catastrophic"]
    reason: str


def zones(won: list[int]) -> list[ColourZones]:
    """Per colour present in `won`: every card with a same-colour neighbour (+-1) is
    catastrophic; of the rest the lowest is safe and scores its units digit; the others are
    in danger. 39 and 40 are not neighbours: they belong to different colours."""
    out = []
    for c in sorted({colour(card) for card in won}):
        cards = sorted(card for card in won if colour(card) == c)
        held = set(cards)
        cat = [
            x
            for x in cards
            if (x - 1 in held and colour(x - 1) == c) or (x + 1 in held and colour(x + 1) == c)
        ]
        rest = [x for x in cards if x not in cat]
        safe = rest[0] if rest else None
        out.append(
            ColourZones(
                colour=colour_name(c),
                safe=safe,
                danger=rest[1:],
                catastrophic=cat,
                points=points(safe) if safe is not None else 0,
            )
        )
    return out


def score(won: list[int]) -> int:
    return sum(z.points for z in zones(won))


def reasons(won: list[int]) -> list[CardZone]:
    """Each won card's zone, and why."""
    out = []
    for z in zones(won):
        if z.safe is not None:
            out.append(
                CardZone(
                    card=z.safe,
                    zone="safe",
                    reason=f"the lowest {z.colour} card not next to another: scores {z.points}",
                )
            )
        out += [
            CardZone(
                card=x, zone="danger", reason=f"not the lowest free {z.colour} card ({z.safe})"
            )
            for x in z.danger
        ]
        out += [
            CardZone(card=x, zone="catastrophic", reason=f"next to another {z.colour} card")
            for x in z.catastrophic
        ]
    return sorted(out, key=lambda r: r.card)
