"""What a reader of a High Voltage game may see: won cards and zones are public, a hand and
a draft choice are the holder's alone."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer
from domain.kernel.shared_view import waiting_on

from .messages import HighVoltageRoundScored
from .rules import teams
from .scoring import ColourZones, score, zones
from .state import HighVoltageState, Played


class HighVoltageView(msgspec.Struct, frozen=True, tag="high-voltage", tag_field="game"):
    round: int
    turn: int | None
    """The seat to play in a trick, or the last seat still picking in the draft."""
    to_act: list[int]
    """The seats that may send a command now: in the draft every seat that has not picked at
    this stage, in the tricks the seat to play."""
    totals: list[int]
    """Each seat's own points of the rounds scored so far (`team_totals` adds a team's)."""
    winners: list[int] | None
    """The seats with the highest total (in team mode both seats of the team with the
    highest team total) once the game is over; a tie is shared."""
    rounds: int
    phase: Literal["draft", "tricks", "over"]
    stage: Literal[1, 2]
    """Draft stage: 1 = choosing 3 of the 9 dealt, 2 = choosing 3 of the 6 received."""
    picked: list[bool]
    """Per seat: has it picked at this stage (which cards stays hidden)."""
    choose_from: list[int] | None
    """Your cards to pick from in the draft (null for a spectator)."""
    hand: list[int] | None
    """Your hand (null for a spectator)."""
    hand_sizes: list[int]
    leader: int
    trick: int
    plays: list[Played]
    """The cards of the trick in progress, in the order played."""
    won: list[list[int]]
    zones: list[list[ColourZones]]
    """Per seat, per colour won: safe, danger and catastrophic cards, and the safe points."""
    round_points: list[int]
    teams: list[list[int]] | None
    team_totals: list[int] | None
    last_round: HighVoltageRoundScored | None
    hands: list[list[int]] | None
    """Every hand: for the auditor, that is everyone once the game is over."""
    undealt: list[int] | None
    """The cards that left unseen this round: for the auditor only."""


def to_act(state: HighVoltageState) -> list[int]:
    """The draft is simultaneous: every seat that has not picked may. Which seats have picked
    is public; what they picked is not."""
    if state.phase == "draft":
        return [s for s, done in enumerate(state.picked) if not done]
    if state.phase == "tricks" and state.hands[state.turn]:
        return [state.turn]
    return []


def view(state: HighVoltageState, viewer: Viewer) -> HighVoltageView:
    seat = viewer if isinstance(viewer, int) else None
    sides = teams(state.options, state.seats)
    auditor = viewer == AUDITOR
    acting = to_act(state)
    return HighVoltageView(
        round=state.round,
        turn=waiting_on(acting),
        to_act=acting,
        totals=list(state.totals),
        winners=state.winners,
        rounds=state.rounds,
        phase=state.phase,
        stage=state.stage,
        picked=list(state.picked),
        choose_from=sorted(state.packets[seat]) if seat is not None and state.packets else None,
        hand=sorted(state.hands[seat]) if seat is not None and state.hands else None,
        hand_sizes=[len(h) for h in state.hands],
        leader=state.leader,
        trick=state.trick,
        plays=list(state.plays),
        won=[sorted(w) for w in state.won],
        zones=[zones(w) for w in state.won],
        round_points=[score(w) for w in state.won],
        teams=sides,
        team_totals=[sum(state.totals[s] for s in side) for side in sides] if sides else None,
        last_round=state.last_round,
        hands=[sorted(h) for h in state.hands] if auditor else None,
        undealt=list(state.undealt) if auditor else None,
    )
