"""What a reader of a Danger game may see. Everything lies face-up but the stack."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer

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
    rounds: int
    starter: int
    turn: int | None
    phase: Literal["draw", "protect", "scoring", "over"]
    stack_size: int
    discard: DiscardPile
    drawn: str | None
    boards: list[Board]
    totals: list[int]
    last_round: RoundScored | None
    winners: list[int] | None
    stack: list[str] | None
    """The stack, top first: shown only to the auditor, that is to everyone once the game ends."""


def view(state: DangerState, viewer: Viewer) -> DangerView:
    return DangerView(
        round=state.round,
        rounds=ROUNDS,
        starter=state.starter,
        turn=None if state.phase == "over" else state.turn,
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
        totals=list(state.totals),
        last_round=state.last_round,
        winners=state.winners,
        stack=list(state.stack) if viewer == AUDITOR else None,
    )
