"""What a reader of a Danger game may see. Everything lies face-up but the stack."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import AUDITOR, Viewer

from .state import ROUNDS, DangerState


def view(state: DangerState, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": state.round,
        "rounds": ROUNDS,
        "starter": state.starter,
        "turn": None if state.phase == "over" else state.turn,
        "phase": state.phase,
        "stack_size": len(state.stack),
        "discard": {
            "count": len(state.discard),
            "top": state.discard[-1] if state.discard else None,
            "takeable": state.takeable,
        },
        "drawn": state.drawn,
        "boards": [
            {
                "seat": seat,
                "cards_in_front": sum(len(r.cards) for r in rows.values()),
                "rows": {c: msgspec.to_builtins(r) for c, r in rows.items()},
            }
            for seat, rows in enumerate(state.rows)
        ],
        "totals": list(state.totals),
        "last_round": msgspec.to_builtins(state.last_round) if state.last_round else None,
        "winners": state.winners,
    }
    if viewer == AUDITOR:
        out["stack"] = list(state.stack)
    return out
