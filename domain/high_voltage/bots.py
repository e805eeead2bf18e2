"""High Voltage's greedy bot: it sees only its seat's view."""

from __future__ import annotations

from domain.kernel import Command
from domain.kernel.bots import Dice

from .cards import DECKS
from .messages import Pick, Play
from .view import HighVoltageView

P = {
    "ext": 1.0,
    "units": 0.5,
    "deny": 0.5,
    "junk": 1.0,
    "keep": 0.0,
    "keephigh": 0.0,
}


def _points(cards: list[int]) -> int:
    """The score of a pile: per colour, the lowest card with no same-colour neighbour."""
    held = set(cards)
    best: dict[int, int] = {}
    for x in held:
        if x - 1 in held and (x - 1) // 10 == x // 10 or x + 1 in held and (x + 1) // 10 == x // 10:
            continue
        tens = x // 10
        if tens not in best or x < best[tens]:
            best[tens] = x
    return sum(x % 10 for x in best.values())


def greedy(view: HighVoltageView, seat: int, moves: list[Command], dice: Dice) -> Command:
    if view.phase == "draft":
        return _pick(view, moves, dice)
    return _play(view, seat, moves, dice)


def _pick(view: HighVoltageView, moves: list[Command], dice: Dice) -> Command:
    deck = DECKS[len(view.hand_sizes)]
    low, high = deck[0], deck[-1]

    def value(card: int) -> float:
        r = (card - low) / (high - low)
        return P["ext"] * abs(r - 0.5) * 2 + P["units"] * (card % 10) / 9 * r

    def total(move: Command) -> float:
        assert isinstance(move, Pick)
        return sum(value(c) for c in move.cards) + dice.random() * 1e-6

    return max(moves, key=total)


def _play(view: HighVoltageView, seat: int, moves: list[Command], dice: Dice) -> Command:
    n = len(view.hand_sizes)
    hand = view.hand or []
    plays = [p.card for p in view.plays]
    best = max(plays, default=0)
    leader_seat = next((p.seat for p in view.plays if p.card == best), None)
    later = n - len(plays) - 1
    seen = set(hand) | set(plays) | {c for pile in view.won for c in pile}
    unseen = [c for c in DECKS[n] if c not in seen]
    mine = view.won[seat]
    now = _points(mine)
    deny = 1.0 if n == 2 else P["deny"]

    def value(card: int) -> float:
        if card < best:
            assert leader_seat is not None
            pile = view.won[leader_seat] + plays
            harm = _points(pile + [card]) - _points(pile)
            return -deny * harm * (1.0 if later == 0 else 0.5)
        taken = mine + plays + [card]
        gain = _points(taken) - now
        if later == 0:
            return gain
        above = sum(1 for u in unseen if u > card)
        p_win = (1 - above / len(unseen)) ** later if unseen else 1.0
        below = [u for u in unseen if u < card]
        if below:
            after = _points(taken)
            junk = sum(_points(taken + [u]) - after for u in below) / len(below)
            gain += P["junk"] * later * junk
        return p_win * gain

    deck = DECKS[n]

    def total(move: Command) -> float:
        assert isinstance(move, Play)
        r = (move.card - deck[0]) / (deck[-1] - deck[0])
        return value(move.card) - P["keep"] * abs(r - 0.5) * 2 - P["keephigh"] * r + dice.random() * 1e-6

    return max(moves, key=total)
