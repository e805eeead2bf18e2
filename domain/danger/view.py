"""What a reader of a Danger game may see. Everything lies face-up but the stack."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer
from domain.kernel.shared_view import waiting_on

from .messages import RoundScored
from .state import ROUNDS, DangerState


class RowView(msgspec.Struct, frozen=True):
    cards: list[str]
    sum: int
    protected: bool
    closed: bool


class Rows(msgspec.Struct, frozen=True):
    red: RowView
    blue: RowView
    green: RowView
    yellow: RowView


class Board(msgspec.Struct, frozen=True):
    seat: int
    cards_in_front: int
    rows: Rows


class DiscardPile(msgspec.Struct, frozen=True):
    count: int
    top: str | None
    takeable: bool
    """True when the seat to act may take `top` (discarded on the turn just before)."""


class DangerView(msgspec.Struct, frozen=True, tag="danger", tag_field="game"):
    round: int
    turn: int | None
    """The seat whose turn it is (null once the game is over)."""
    to_act: list[int]
    """The seats that may send a command now: the seat whose turn it is."""
    totals: list[int]
    """Each seat's points of the rounds scored so far."""
    winners: list[int] | None
    """The seats with the highest total once the game is over (a tie is shared)."""
    rounds: int
    starter: int
    phase: Literal["draw", "protect", "scoring", "over"]
    stack_size: int
    discard: DiscardPile
    drawn: str | None
    boards: list[Board]
    last_round: RoundScored | None
    stack: list[str] | None
    """The stack, top first: shown only to the auditor, that is to everyone once the game ends."""


def to_act(state: DangerState) -> list[int]:
    """Only the seat whose turn it is acts, and it always may: draw, or protect or end."""
    return [state.turn] if state.phase in ("draw", "protect") else []


def view(state: DangerState, viewer: Viewer) -> DangerView:
    acting = to_act(state)
    return DangerView(
        round=state.round,
        turn=waiting_on(acting),
        to_act=acting,
        totals=list(state.totals),
        winners=state.winners,
        rounds=ROUNDS,
        starter=state.starter,
        phase=state.phase,
        stack_size=len(state.stack),
        discard=DiscardPile(
            count=len(state.discard),
            top=state.discard[-1] if state.discard else None,
            takeable=state.takeable,
        ),
        drawn=state.drawn,
        boards=[
            Board(
                seat=seat,
                cards_in_front=sum(len(r.cards) for r in rows.values()),
                rows=Rows(
                    **{
                        c: RowView(
                            cards=list(r.cards), sum=r.sum, protected=r.protected, closed=r.closed
                        )
                        for c, r in rows.items()
                    }
                ),
            )
            for seat, rows in enumerate(state.rows)
        ],
        last_round=state.last_round,
        stack=list(state.stack) if viewer == AUDITOR else None,
    )
