"""What a reader of a Danger Danger game may see: everything on the table, never the timer."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import AUDITOR, Viewer

from .messages import RoundScored
from .state import DangerDangerState, cases_showing


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


def view(state: DangerDangerState, viewer: Viewer) -> DangerDangerView:
    auditor = viewer == AUDITOR
    return DangerDangerView(
        round=state.round,
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
