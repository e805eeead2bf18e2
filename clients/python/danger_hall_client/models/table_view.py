from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.table_view_status import TableViewStatus, check_table_view_status

if TYPE_CHECKING:
    from ..models.danger_13_view import Danger13View
    from ..models.danger_danger_view import DangerDangerView
    from ..models.danger_view import DangerView
    from ..models.high_voltage_view import HighVoltageView
    from ..models.seat import Seat
    from ..models.table_view_options import TableViewOptions


T = TypeVar("T", bound="TableView")


@_attrs_define
class TableView:
    """
    Attributes:
        game (str):
        options (TableViewOptions):
        players (list[Seat]):
        sandbox (bool):
        seats (int):
        seed (None | str):
        seed_commitment (str):
        state (Danger13View | DangerDangerView | DangerView | HighVoltageView | None):
        status (TableViewStatus):
        verifiable (bool):
        you (int | None):
    """

    game: str
    options: TableViewOptions
    players: list[Seat]
    sandbox: bool
    seats: int
    seed: None | str
    seed_commitment: str
    state: Danger13View | DangerDangerView | DangerView | HighVoltageView | None
    status: TableViewStatus
    verifiable: bool
    you: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.danger_13_view import Danger13View  # noqa: PLC0415
        from ..models.danger_danger_view import DangerDangerView  # noqa: PLC0415
        from ..models.danger_view import DangerView  # noqa: PLC0415
        from ..models.high_voltage_view import HighVoltageView  # noqa: PLC0415

        game = self.game

        options = self.options.to_dict()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        sandbox = self.sandbox

        seats = self.seats

        seed: None | str
        seed = self.seed

        seed_commitment = self.seed_commitment

        state: dict[str, Any] | None
        if isinstance(self.state, DangerView):
            state = self.state.to_dict()
        elif isinstance(self.state, HighVoltageView):
            state = self.state.to_dict()
        elif isinstance(self.state, Danger13View):
            state = self.state.to_dict()
        elif isinstance(self.state, DangerDangerView):
            state = self.state.to_dict()
        else:
            state = self.state

        status: str = self.status

        verifiable = self.verifiable

        you: int | None
        you = self.you

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "options": options,
                "players": players,
                "sandbox": sandbox,
                "seats": seats,
                "seed": seed,
                "seed_commitment": seed_commitment,
                "state": state,
                "status": status,
                "verifiable": verifiable,
                "you": you,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_13_view import Danger13View  # noqa: PLC0415
        from ..models.danger_danger_view import DangerDangerView  # noqa: PLC0415
        from ..models.danger_view import DangerView  # noqa: PLC0415
        from ..models.high_voltage_view import HighVoltageView  # noqa: PLC0415
        from ..models.seat import Seat  # noqa: PLC0415
        from ..models.table_view_options import TableViewOptions  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        options = TableViewOptions.from_dict(d.pop("options"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Seat.from_dict(players_item_data)

            players.append(players_item)

        sandbox = d.pop("sandbox")

        seats = d.pop("seats")

        def _parse_seed(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        seed = _parse_seed(d.pop("seed"))

        seed_commitment = d.pop("seed_commitment")

        def _parse_state(data: object) -> Danger13View | DangerDangerView | DangerView | HighVoltageView | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                state_type_0 = DangerView.from_dict(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                state_type_1 = HighVoltageView.from_dict(data)

                return state_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                state_type_2 = Danger13View.from_dict(data)

                return state_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                state_type_3 = DangerDangerView.from_dict(data)

                return state_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Danger13View | DangerDangerView | DangerView | HighVoltageView | None, data)

        state = _parse_state(d.pop("state"))

        status = check_table_view_status(d.pop("status"))

        verifiable = d.pop("verifiable")

        def _parse_you(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        you = _parse_you(d.pop("you"))

        table_view = cls(
            game=game,
            options=options,
            players=players,
            sandbox=sandbox,
            seats=seats,
            seed=seed,
            seed_commitment=seed_commitment,
            state=state,
            status=status,
            verifiable=verifiable,
            you=you,
        )

        table_view.additional_properties = d
        return table_view

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
