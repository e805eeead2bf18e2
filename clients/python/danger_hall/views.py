"""A game as one seat (or a spectator) sees it, read the same way whatever the game.

`GET /v1/games/{id}` and a stream's `view` messages answer a GameOut, whose `view.state` is
one model per kind of game; the generator also names its field `round` `round_` (a Python
builtin). `View` reads the fields every game's state has (`round`, `turn`, `to_act`,
`totals`, `winners`: docs/views.md, "The shared fields") by their JSON names, and keeps the
models at hand for the rest."""

from __future__ import annotations

from typing import Any

from danger_hall_client.models import GameOut, TableView
from danger_hall_client.types import Unset

OVER = frozenset({"finished", "abandoned"})


class View:
    """What GameOut says, its state's shared fields as properties. Before the start there is
    no state: they read None (`to_act`: no seat)."""

    def __init__(self, out: GameOut) -> None:
        self.out = out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> View:
        return cls(GameOut.from_dict({k: v for k, v in data.items() if k != "type"}))

    def __repr__(self) -> str:
        return f"View(id={self.id!r}, seq={self.seq}, status={self.status!r}, round={self.round})"

    @property
    def id(self) -> str:
        return self.out.id

    @property
    def game(self) -> str:
        return self.out.game

    @property
    def status(self) -> str:
        return self.out.status

    @property
    def over(self) -> bool:
        return self.out.status in OVER

    @property
    def seq(self) -> int:
        return self.out.seq

    @property
    def legal(self) -> list[Any]:
        """The commands the caller may send now, as models `game.command` takes."""
        return list(self.out.legal)

    @property
    def table(self) -> TableView:
        return self.out.view

    @property
    def you(self) -> int | None:
        """The caller's seat; None for a spectator."""
        return self.out.view.you

    @property
    def state(self) -> Any:
        """The kind's own model (DangerView, HighVoltageView, ...), None before the start."""
        return self.out.view.state

    @property
    def round(self) -> int | None:
        return self._field("round")

    @property
    def turn(self) -> int | None:
        return self._field("turn")

    @property
    def to_act(self) -> list[int]:
        """The seats the game waits for now."""
        return self._field("to_act") or []

    @property
    def totals(self) -> list[int] | None:
        return self._field("totals")

    @property
    def winners(self) -> list[int] | None:
        return self._field("winners")

    def _field(self, name: str) -> Any:
        state = self.out.view.state
        if state is None:
            return None
        for attribute in (name, f"{name}_"):
            if hasattr(state, attribute):
                value = getattr(state, attribute)
                return None if isinstance(value, Unset) else value
        return state.additional_properties.get(name)
