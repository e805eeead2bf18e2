from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.danger_view_phase import DangerViewPhase, check_danger_view_phase

if TYPE_CHECKING:
    from ..models.board import Board
    from ..models.danger_round_scored import DangerRoundScored
    from ..models.discard_pile import DiscardPile


T = TypeVar("T", bound="DangerView")


@_attrs_define
class DangerView:
    """
    Attributes:
        boards (list[Board]):
        discard (DiscardPile):
        drawn (None | str):
        game (Literal['danger']):
        last_round (DangerRoundScored | None):
        phase (DangerViewPhase):
        round_ (int):
        rounds (int):
        stack (list[str] | None):
        stack_size (int):
        starter (int):
        to_act (list[int]):
        totals (list[int]):
        turn (int | None):
        winners (list[int] | None):
    """

    boards: list[Board]
    discard: DiscardPile
    drawn: None | str
    game: Literal["danger"]
    last_round: DangerRoundScored | None
    phase: DangerViewPhase
    round_: int
    rounds: int
    stack: list[str] | None
    stack_size: int
    starter: int
    to_act: list[int]
    totals: list[int]
    turn: int | None
    winners: list[int] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.danger_round_scored import DangerRoundScored  # noqa: PLC0415

        boards = []
        for boards_item_data in self.boards:
            boards_item = boards_item_data.to_dict()
            boards.append(boards_item)

        discard = self.discard.to_dict()

        drawn: None | str
        drawn = self.drawn

        game = self.game

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, DangerRoundScored):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        phase: str = self.phase

        round_ = self.round_

        rounds = self.rounds

        stack: list[str] | None
        if isinstance(self.stack, list):
            stack = self.stack

        else:
            stack = self.stack

        stack_size = self.stack_size

        starter = self.starter

        to_act = self.to_act

        totals = self.totals

        turn: int | None
        turn = self.turn

        winners: list[int] | None
        if isinstance(self.winners, list):
            winners = self.winners

        else:
            winners = self.winners

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "boards": boards,
                "discard": discard,
                "drawn": drawn,
                "game": game,
                "last_round": last_round,
                "phase": phase,
                "round": round_,
                "rounds": rounds,
                "stack": stack,
                "stack_size": stack_size,
                "starter": starter,
                "to_act": to_act,
                "totals": totals,
                "turn": turn,
                "winners": winners,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.board import Board  # noqa: PLC0415
        from ..models.danger_round_scored import DangerRoundScored  # noqa: PLC0415
        from ..models.discard_pile import DiscardPile  # noqa: PLC0415

        d = dict(src_dict)
        boards = []
        _boards = d.pop("boards")
        for boards_item_data in _boards:
            boards_item = Board.from_dict(boards_item_data)

            boards.append(boards_item)

        discard = DiscardPile.from_dict(d.pop("discard"))

        def _parse_drawn(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        drawn = _parse_drawn(d.pop("drawn"))

        game = cast(Literal["danger"], d.pop("game"))
        if game != "danger":
            raise ValueError(f"game must match const 'danger', got '{game}'")

        def _parse_last_round(data: object) -> DangerRoundScored | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = DangerRoundScored.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DangerRoundScored | None, data)

        last_round = _parse_last_round(d.pop("last_round"))

        phase = check_danger_view_phase(d.pop("phase"))

        round_ = d.pop("round")

        rounds = d.pop("rounds")

        def _parse_stack(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                stack_type_0 = cast(list[str], data)

                return stack_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        stack = _parse_stack(d.pop("stack"))

        stack_size = d.pop("stack_size")

        starter = d.pop("starter")

        to_act = cast(list[int], d.pop("to_act"))

        totals = cast(list[int], d.pop("totals"))

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        def _parse_winners(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                winners_type_0 = cast(list[int], data)

                return winners_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        winners = _parse_winners(d.pop("winners"))

        danger_view = cls(
            boards=boards,
            discard=discard,
            drawn=drawn,
            game=game,
            last_round=last_round,
            phase=phase,
            round_=round_,
            rounds=rounds,
            stack=stack,
            stack_size=stack_size,
            starter=starter,
            to_act=to_act,
            totals=totals,
            turn=turn,
            winners=winners,
        )

        danger_view.additional_properties = d
        return danger_view

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
