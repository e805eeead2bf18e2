"""Scoring a round of Danger, with the reason for every row."""

from __future__ import annotations

from .cards import COLOURS, Colour
from .messages import RowReason, RowScore
from .state import Row


def comparable_sum(row: Row) -> int:
    """A row's sum as scoring compares it: a closed row counts 0 [seed example]; a player
    with no card of the colour takes part as 0 with 0 cards [house ruling]."""
    return 0 if row.closed else row.sum


def smallest(rows: list[dict[Colour, Row]], colour: Colour) -> set[int]:
    """The seats whose row of `colour` is discarded: the smallest sum; a tie is broken by
    card count, fewer cards discards; tied on count too, all tied discard [seed]."""
    sums = [comparable_sum(r[colour]) for r in rows]
    low = min(sums)
    tied = [seat for seat, s in enumerate(sums) if s == low]
    fewest = min(len(rows[seat][colour].cards) for seat in tied)
    return {seat for seat in tied if len(rows[seat][colour].cards) == fewest}


def score_round(rows: list[dict[Colour, Row]]) -> tuple[list[RowScore], list[int]]:
    scores: list[RowScore] = []
    points = [0] * len(rows)
    for colour in COLOURS:
        sums = [comparable_sum(r[colour]) for r in rows]
        low = min(sums)
        tied = [seat for seat, s in enumerate(sums) if s == low]
        losers = smallest(rows, colour)
        for seat, seat_rows in enumerate(rows):
            row = seat_rows[colour]
            n = len(row.cards)
            reason: RowReason
            if row.closed:
                reason, note = "closed", f"{row.sum} is over 15: the row is closed and scores 0."
            elif seat in losers and len(tied) == 1:
                reason, note = "smallest", f"{low} is the smallest {colour} sum: discarded."
            elif seat in losers and len(losers) == 1:
                reason = "smallest_fewer_cards"
                note = (
                    f"{low} ties for the smallest {colour} sum; "
                    f"{n} card(s) is the fewest: discarded."
                )
            elif seat in losers:
                reason = "smallest_tied"
                note = (
                    f"{low} ties for the smallest {colour} sum with as many cards: "
                    "all tied discard."
                )
            elif seat in tied:
                reason = "more_cards"
                note = f"{low} ties for the smallest {colour} sum, but with more cards: it scores."
            else:
                reason, note = "scored", f"{row.sum} scores."
            earned = 0 if reason not in ("scored", "more_cards") else row.sum
            points[seat] += earned
            scores.append(
                RowScore(
                    seat=seat,
                    colour=colour,
                    cards=list(row.cards),
                    sum=row.sum,
                    closed=row.closed,
                    protected=row.protected,
                    discarded=seat in losers,
                    points=earned,
                    reason=reason,
                    note=note,
                )
            )
    return scores, points


def next_starter(totals: list[int], previous: int) -> int:
    """The lowest cumulative score starts [seed]; a tie goes to the first tied seat
    clockwise after the previous starter, who is looked at last [house]."""
    low = min(totals)
    n = len(totals)
    for step in range(1, n + 1):
        seat = (previous + step) % n
        if totals[seat] == low:
            return seat
    raise AssertionError("unreachable: some seat holds the lowest total")


def winners(totals: list[int], resigned: list[int] | None = None) -> list[int]:
    """The highest total wins; a tie is shared [house]. A seat that resigned cannot win
    (docs/rulings.md, "Resigning")."""
    out = resigned or []
    best = max(t for seat, t in enumerate(totals) if seat not in out)
    return [seat for seat, t in enumerate(totals) if t == best and seat not in out]
