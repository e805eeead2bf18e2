"""Danger Danger's heuristic bot: play each card where it swings the Cases most, and go out
as soon as the other team is out and we lead.

The round timer is hidden, but it only hurts a team still in after the other went out (both
in: the round is replayed). So while the other team plays, we keep covering its Cases; once
it is out the board is frozen and a lead is a won round. Cards played stand in for a clock:
late in a round a lead is taken home rather than risked.
"""

from __future__ import annotations

from domain.kernel import Command
from domain.kernel.bots import Dice

from .cards import INITIAL, cases, fits, is_new_stack
from .messages import DrawCard, GoOut, NewStack, PlayCard, Swap
from .view import DangerDangerView

LATE = 20
"""Cards our team has played when a lead is worth banking with the other team still in: a
lone player needs two moves a card, so 20 cards are about 40 of the 60 seconds."""


def greedy(view: DangerDangerView, seat: int, moves: list[Command], dice: Dice) -> Command:
    if len(moves) == 1:
        return moves[0]
    me = view.your_team
    assert me is not None
    ours, theirs = view.teams[me], view.teams[_other(me)]
    if ours.holding is None:
        return _draw_or_go_out(view, me, moves)
    return _place(view, ours.holding, ours.swap, theirs.out, moves, dice)


def _other(team: str) -> str:
    return "yellow" if team == "pink" else "pink"


def _draw_or_go_out(view: DangerDangerView, me: str, moves: list[Command]) -> Command:
    if GoOut() not in moves:
        return DrawCard()
    if DrawCard() not in moves:
        return GoOut()
    lead = view.cases_now[me] - view.cases_now[_other(me)]
    if view.teams[_other(me)].out:
        # The board only moves for us now: a lead wins, anything else needs another card.
        return GoOut() if lead > 0 else DrawCard()
    played = sum(c[0] == INITIAL[me] for s in view.stacks for c in s[1:])
    played += len(view.teams[me].trashed)
    return GoOut() if played >= LATE and lead > 0 else DrawCard()


def _place(
    view: DangerDangerView,
    card: str,
    swap: str | None,
    they_are_out: bool,
    moves: list[Command],
    dice: Dice,
) -> Command:
    scored = [(_swing(card, m), dice.random(), m) for m in moves if m != Swap()]
    best, _, move = max(scored, key=lambda s: s[:2])
    if swap is not None and Swap() in moves:
        # Swapping costs a move but not the card, which waits as the new Swap Card.
        if _best_swing(view, swap) > best:
            return Swap()
        if best < 0 and not they_are_out and dice.random() < 0.5:
            return Swap()  # nothing fits: wait (twice swapped is the same hand) for a gap
    return move


def _swing(card: str, move: Command) -> int:
    """How much our lead changes if `card` makes `move`."""
    match move:
        case PlayCard(on=top):
            return cases(card) + (cases(top) if top[0] != card[0] else -cases(top))
        case NewStack():
            return cases(card)
    return -cases(card)  # trashed: its Cases go to the other team


def _best_swing(view: DangerDangerView, card: str) -> int:
    tops = [s[-1] for s in view.stacks]
    swings = [_swing(card, PlayCard(stack=0, on=top)) for top in tops if fits(card, top)]
    if is_new_stack(card):
        swings.append(cases(card))
    return max(swings, default=-cases(card))
