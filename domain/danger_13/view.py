"""What a reader of a Danger 13 game may see: every row is public; won cards lie face down
(their owner knows them, the others see how many); the packet is hidden until revealed."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer
from domain.kernel.shared_view import waiting_on

from .messages import RoundScored
from .state import Danger13State, Pending, limit_of, row_sum, signs


class Danger13View(msgspec.Struct, frozen=True, tag="danger-13", tag_field="game"):
    round: int
    turn: int | None
    """The seat the game waits on: the dealer giving the revealed card, or the seat
    deciding on a card with its hand."""
    to_act: list[int]
    """The seats that may send a command now: `turn`, or none between deals."""
    totals: list[int] | None
    """Each seat's "+" signs on its won cards, the game's score: null until the game is
    over, because won cards lie face down."""
    winners: list[int] | None
    """Most "+" signs, then the highest total value of won cards; a tie is shared."""
    first: int
    """The seat holding the 1st-player card."""
    dealer: int
    phase: Literal["give", "decide", "over"]
    pile_size: int
    discard_size: int
    packet_size: int
    """Cards of the packet not yet given (face down; the revealed one included)."""
    revealed: str | None
    """The packet's card the dealer must give now."""
    received: list[bool]
    """Per seat: has it had its card from this packet."""
    pending: Pending | None
    """A seat holding a hand deciding on a card that reached it."""
    rows: list[list[str]]
    sums: list[int]
    limits: list[int]
    won_counts: list[int]
    won: list[str] | None
    """Your won cards (face down: only you see them)."""
    final: bool
    """The pile has run out once: the game ends at the next scoring."""
    last_round: RoundScored | None
    all_won: list[list[str]] | None
    """Everyone's won cards: for the auditor, that is everyone once the game is over."""
    plus_signs: list[int] | None
    """Everyone's "+" signs, once the game is over."""
    packet: list[str] | None
    pile: list[str] | None
    """The packet and the pile, top first: for the auditor only."""


def to_act(state: Danger13State) -> list[int]:
    """The dealer acts while a revealed card waits to be given; a seat with a hand, while a
    card that reached it waits for its decision."""
    if state.phase == "give" and state.revealed and not all(state.received):
        return [state.dealer]
    if state.phase == "decide" and state.pending is not None:
        return [state.pending.seat]
    return []


def view(state: Danger13State, viewer: Viewer) -> Danger13View:
    seat = viewer if isinstance(viewer, int) else None
    auditor = viewer == AUDITOR
    acting = to_act(state)
    return Danger13View(
        round=state.round,
        turn=waiting_on(acting),
        to_act=acting,
        # "then the game is over. Each player adds up the "+" signs on the cards turned over
        # in front of him": until then they lie face down.
        totals=[signs(w) for w in state.won] if auditor or state.phase == "over" else None,
        winners=state.winners,
        first=state.first,
        dealer=state.dealer,
        phase=state.phase,
        pile_size=len(state.pile),
        discard_size=len(state.discard),
        packet_size=len(state.packet),
        revealed=state.packet[0] if state.revealed else None,
        received=list(state.received),
        pending=state.pending,
        rows=[list(r) for r in state.rows],
        sums=[row_sum(r) for r in state.rows],
        limits=[limit_of(r) for r in state.rows],
        won_counts=[len(w) for w in state.won],
        won=list(state.won[seat]) if seat is not None else None,
        final=state.final,
        last_round=state.last_round,
        all_won=[list(w) for w in state.won] if auditor else None,
        plus_signs=[signs(w) for w in state.won] if auditor else None,
        packet=list(state.packet) if auditor else None,
        pile=list(state.pile) if auditor else None,
    )
