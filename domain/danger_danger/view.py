"""What a reader of a Danger Danger game may see: everything on the table, never the timer."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer
from domain.kernel.shared_view import waiting_on

from .messages import RoundScored
from .state import DangerDangerState, TeamState, cases_showing


class TeamView(msgspec.Struct, frozen=True):
    seats: list[int]
    next_to_draw: int
    """The relay: the member who draws the team's next card."""
    holding: str | None
    holder: int | None
    swap: str | None
    pile_size: int
    declared: list[int]
    """Members whose hands are flat (going out)."""
    out: bool
    trashed: list[str]
    """Cards this team trashed: their Cases count for the other team."""
    pile: list[str] | None
    """The draw pile, top first: for the auditor only."""


class DangerDangerView(msgspec.Struct, frozen=True, tag="danger-danger", tag_field="game"):
    round: int
    turn: int | None
    """The one seat that may act, when only one may (the game has no turns: both teams play
    at once); null otherwise."""
    to_act: list[int]
    """The seats that may send a command now: a team's holder, its member next to draw,
    and its members who have not declared going out, while the team is not out."""
    totals: list[int]
    """Per seat, the Point Tokens of its team."""
    winners: list[int] | None
    """The seats of the `winner` team, once it has won."""
    attempt: int
    phase: Literal["playing", "over"]
    your_team: str | None
    teams: dict[str, TeamView]
    stacks: list[list[str]]
    """Each stack bottom first: its last card is the one that counts."""
    cases_now: dict[str, int]
    """The Cases each team would score if both went out now."""
    tokens: dict[str, int]
    last_round: RoundScored | None
    winner: str | None


def _may_act(team: TeamState, seat: int) -> bool:
    if team.out:
        return False
    if team.holding is not None:
        # "no one can look at or draw the next card until you've successfully played the
        # card in your hand"; the holder may always trash it.
        return team.holder == seat
    return (team.seats[team.relay] == seat and bool(team.pile)) or seat not in team.declared


def to_act(state: DangerDangerState) -> list[int]:
    if state.phase == "over":
        return []
    return sorted(s for t in state.teams.values() for s in t.seats if _may_act(t, s))


def view(state: DangerDangerState, viewer: Viewer) -> DangerDangerView:
    auditor = viewer == AUDITOR
    acting = to_act(state)
    return DangerDangerView(
        round=state.round,
        turn=waiting_on(acting),
        to_act=acting,
        totals=[state.tokens[state.team_of(s)] if state.teams else 0 for s in range(state.seats)],
        winners=sorted(state.teams[state.winner].seats) if state.winner else None,
        attempt=state.attempt,
        phase=state.phase,
        your_team=state.team_of(viewer) if isinstance(viewer, int) and state.teams else None,
        teams={
            name: TeamView(
                seats=list(t.seats),
                next_to_draw=t.seats[t.relay],
                holding=t.holding,
                holder=t.holder,
                swap=t.swap,
                pile_size=len(t.pile),
                declared=list(t.declared),
                out=t.out,
                trashed=list(t.trashed),
                pile=list(t.pile) if auditor else None,
            )
            for name, t in state.teams.items()
        },
        stacks=[list(s) for s in state.stacks],
        cases_now=cases_showing(state),
        tokens=dict(state.tokens),
        last_round=state.last_round,
        winner=state.winner,
    )
