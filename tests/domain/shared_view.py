"""The fields every game's view shares (docs/views.md), checked by each game's property test
after every command: the same for every reader, and agreeing with the rules' `legal`, the
very list the service answers a seat with."""

from __future__ import annotations

from typing import Any

from domain.kernel import AUDITOR, SPECTATOR, GameRules


def shared_views(rules: GameRules, state: Any) -> dict[Any, Any]:
    """Every reader's view of `state` (each seat, a spectator, the auditor), once the shared
    fields are checked; for the game's test to compare them with its own fields."""
    views: dict[Any, Any] = {
        v: rules.view(state, v) for v in (*range(state.seats), SPECTATOR, AUDITOR)
    }
    acting = [s for s in range(state.seats) if rules.legal(state, s)]
    whole = views[AUDITOR]
    for viewer, seen in views.items():
        assert seen.to_act == acting, (viewer, seen.to_act, acting)
        assert seen.turn == (acting[0] if len(acting) == 1 else None), (viewer, seen.turn)
        assert seen.turn is None or seen.turn in seen.to_act
        assert seen.round == state.round
        assert seen.winners == whole.winners
        # Scores are public in every game but Danger 13, where won cards lie face down.
        assert seen.totals in (whole.totals, None)
        assert all(isinstance(t, int) for t in whole.totals or [])
    if whole.winners is not None:
        assert whole.to_act == [] and whole.turn is None
    return views
