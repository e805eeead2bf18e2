"""High Voltage's greedy bot. It sees only its seat's view: its hand, the trick so far and
every seat's won cards, which are public.

Drafting, it keeps the cards furthest from the middle of the deck, as the rulebook advises:
high cards to win the tricks it wants, low ones to lose those it does not. Playing, it
scores each card by what it would do to the scores: a card that wins the trick (for sure if
it plays last, else with the chance that no unseen card beats it) is worth what the trick's
cards and the likely cards still to come add to its own pile; a card that loses is worth
minus what the trick, with it, adds to the pile of the seat now winning it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.kernel import Command
from domain.kernel.bots import Dice

from .cards import DECKS
from .messages import Pick, Play
from .view import HighVoltageView

DENY = 0.5
"""How much a rival's gain counts against ours with more than one rival: he is one of them."""
UNSURE = 0.5
"""How much the gain of the seat now winning counts when others may still take the trick."""


def points(cards: Iterable[int]) -> int:
    """A pile's score: per colour, the lowest card with no same-colour neighbour scores."""
    return sum(_colour_points(same) for same in _by_colour(cards).values())


def _by_colour(cards: Iterable[int]) -> dict[int, set[int]]:
    colours: dict[int, set[int]] = {}
    for card in cards:
        colours.setdefault(card // 10, set()).add(card)
    return colours


def _colour_points(same: set[int]) -> int:
    """The score of one colour's cards."""
    free = [x for x in same if x - 1 not in same and x + 1 not in same]
    return min(free) % 10 if free else 0


def greedy(view: HighVoltageView, seat: int, moves: list[Command], dice: Dice) -> Command:
    value = _keep_value(view) if view.phase == "draft" else _play_value(view, seat)
    # A hair of noise breaks ties between equal moves at random.
    return max(moves, key=lambda move: value(move) + dice.random() * 1e-6)


def _keep_value(view: HighVoltageView) -> Callable[[Command], float]:
    deck = DECKS[len(view.hand_sizes)]
    middle, half = (deck[0] + deck[-1]) / 2, (deck[-1] - deck[0]) / 2

    def value(move: Command) -> float:
        assert isinstance(move, Pick)
        return sum(abs(card - middle) / half for card in move.cards)

    return value


def _play_value(view: HighVoltageView, seat: int) -> Callable[[Command], float]:
    n = len(view.hand_sizes)
    plays = [p.card for p in view.plays]
    best = max(plays, default=0)
    winning = next((p.seat for p in view.plays if p.card == best), seat)
    later = n - len(plays) - 1
    seen = {*(view.hand or []), *plays, *(c for pile in view.won for c in pile)}
    unseen = [c for c in DECKS[n] if c not in seen]
    mine = view.won[seat]
    before = points(mine)
    deny = 1.0 if n == 2 else DENY
    if view.teams:
        # Two sides: a partner's gain is ours, a rival's counts in full against us.
        deny = -1.0 if any(seat in side and winning in side for side in view.teams) else 1.0

    def value(move: Command) -> float:
        assert isinstance(move, Play)
        card = move.card
        if card < best:
            pile = view.won[winning]
            harm = points([*pile, *plays, card]) - points(pile)
            return -deny * harm * (1.0 if later == 0 else UNSURE)
        taken = [*mine, *plays, card]
        after = points(taken)
        gain: float = after - before
        if later == 0 or not unseen:
            return gain
        # The seats still to play are taken to play any unseen card: what one below ours
        # adds to our pile on average, and the chance that none of them beats ours.
        below = [u for u in unseen if u < card]
        if below:
            colours = _by_colour(taken)
            now = {tens: _colour_points(same) for tens, same in colours.items()}
            junk = 0
            for u in below:
                same = colours.get(u // 10, set())
                junk += _colour_points(same | {u}) - now.get(u // 10, 0)
            gain += later * junk / len(below)
        return (1 - (len(unseen) - len(below)) / len(unseen)) ** later * gain

    return value
