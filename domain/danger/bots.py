"""Danger's heuristic bot: it judges each move by the round's points as the table stands,
relative to the other seats, and protects a row when its next card is more likely to close
it than to help."""

from __future__ import annotations

from collections import Counter

from domain.kernel import Command
from domain.kernel.bots import Dice

from .cards import COLOURS, FULL_DECK, LIMIT, Colour, colour, value
from .messages import Draw, EndTurn, Protect, TakeDiscard
from .view import DangerView, Rows

Row = tuple[int, int, bool, bool]
"""(sum, cards, closed, done): what scoring and the next card care about."""
Board = dict[Colour, Row]

_DECK = Counter(FULL_DECK)


def greedy(view: DangerView, seat: int, moves: list[Command], dice: Dice) -> Command:
    """Draw or take the discard, whichever leaves us further ahead on average; protect the
    row most at risk, or the fourth row when that ends the round with us ahead. No move ties
    often enough to need `dice`."""
    boards = [_board(b.rows) for b in view.boards]
    unseen = _unseen(view)
    if view.phase == "draw":
        return _draw_or_take(view, boards, seat, unseen, moves)
    return _protect_or_end(view, boards, seat, unseen, moves)


def _board(rows: Rows) -> Board:
    return {
        c: (r.sum, len(r.cards), r.closed, r.protected or r.closed)
        for c, r in zip(COLOURS, (rows.red, rows.blue, rows.green, rows.yellow), strict=True)
    }


def _unseen(view: DangerView) -> Counter[str]:
    """The cards that may come off the stack: the deck less every face-up card we see (the
    discard pile under its top is not shown, so those count as unseen)."""
    seen = Counter(
        card
        for b in view.boards
        for r in (b.rows.red, b.rows.blue, b.rows.green, b.rows.yellow)
        for card in r.cards
    )
    if view.discard.top is not None:
        seen[view.discard.top] += 1
    return _DECK - seen


# Scoring as it would be now ------------------------------------------------------------


def _points(boards: list[Board]) -> list[int]:
    """The round's points if it ended now: per colour the least (sum, cards) is discarded."""
    points = [0] * len(boards)
    for c in COLOURS:
        keys = [(0 if b[c][2] else b[c][0], b[c][1]) for b in boards]
        low = min(keys)
        for s, key in enumerate(keys):
            if key != low:
                points[s] += key[0]
    return points


def _standing(boards: list[Board], seat: int, totals: list[int]) -> float:
    """Our lead over the best other seat (in totals after this round), which is what wins."""
    after = [t + p for t, p in zip(totals, _points(boards), strict=True)]
    rivals = [a for s, a in enumerate(after) if s != seat]
    return after[seat] - max(rivals)


def _next_card_worth(row: Row, unseen: Counter[str], c: Colour) -> float:
    """What the next card of this colour is worth to an open row on average: its value if it
    fits, minus the whole row if it closes it. Below zero, the row is better protected."""
    total, n = row[0], 0
    worth = 0.0
    for card, k in unseen.items():
        if colour(card) != c:
            continue
        v = value(card)
        worth += k * (v if total + v <= LIMIT else -total)
        n += k
    return worth / n if n else 0.0


# Decisions ----------------------------------------------------------------------------------


def _placed(boards: list[Board], seat: int, card: str) -> list[Board]:
    c = colour(card)
    total, n, _, done = boards[seat][c]
    if done:
        return boards
    total += value(card)
    closed = total > LIMIT
    mine = {**boards[seat], c: (total, n + 1, closed, closed)}
    return [mine if s == seat else b for s, b in enumerate(boards)]


def _draw_or_take(
    view: DangerView, boards: list[Board], seat: int, unseen: Counter[str], moves: list[Command]
) -> Command:
    top = view.discard.top
    if TakeDiscard() not in moves or top is None:
        return Draw()
    # `legal` offers the discard only when it would go into one of our open rows.
    totals = view.totals
    size = sum(unseen.values())
    drawn = sum(
        k * _standing(_placed(boards, seat, card), seat, totals) for card, k in unseen.items()
    )
    taken = _standing(_placed(boards, seat, top), seat, totals)
    return TakeDiscard() if taken >= drawn / size else Draw()


def _protect_or_end(
    view: DangerView,
    boards: list[Board],
    seat: int,
    unseen: Counter[str],
    moves: list[Command],
) -> Command:
    mine = boards[seat]
    best: Command = EndTurn()
    best_worth = 0.0
    for move in moves:
        if not isinstance(move, Protect):
            continue
        c = move.colour
        if all(mine[o][3] for o in COLOURS if o != c):
            # The fourth row: protecting it ends the round, which is good only if we lead.
            if _standing(boards, seat, view.totals) > 0:
                return move
            continue
        worth = _next_card_worth(mine[c], unseen, c)
        if worth < best_worth:
            best, best_worth = move, worth
    return best
