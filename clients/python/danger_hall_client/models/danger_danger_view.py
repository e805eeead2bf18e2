from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.danger_danger_view_phase import DangerDangerViewPhase, check_danger_danger_view_phase

if TYPE_CHECKING:
    from ..models.danger_danger_round_scored import DangerDangerRoundScored
    from ..models.danger_danger_view_cases_now import DangerDangerViewCasesNow
    from ..models.danger_danger_view_teams import DangerDangerViewTeams
    from ..models.danger_danger_view_tokens import DangerDangerViewTokens


T = TypeVar("T", bound="DangerDangerView")


@_attrs_define
class DangerDangerView:
    """
    Attributes:
        attempt (int):
        cases_now (DangerDangerViewCasesNow):
        game (Literal['danger-danger']):
        last_round (DangerDangerRoundScored | None):
        phase (DangerDangerViewPhase):
        round_ (int):
        stacks (list[list[str]]):
        teams (DangerDangerViewTeams):
        to_act (list[int]):
        tokens (DangerDangerViewTokens):
        totals (list[int]):
        turn (int | None):
        winner (None | str):
        winners (list[int] | None):
        your_team (None | str):
    """

    attempt: int
    cases_now: DangerDangerViewCasesNow
    game: Literal["danger-danger"]
    last_round: DangerDangerRoundScored | None
    phase: DangerDangerViewPhase
    round_: int
    stacks: list[list[str]]
    teams: DangerDangerViewTeams
    to_act: list[int]
    tokens: DangerDangerViewTokens
    totals: list[int]
    turn: int | None
    winner: None | str
    winners: list[int] | None
    your_team: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.danger_danger_round_scored import DangerDangerRoundScored  # noqa: PLC0415

        attempt = self.attempt

        cases_now = self.cases_now.to_dict()

        game = self.game

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, DangerDangerRoundScored):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        phase: str = self.phase

        round_ = self.round_

        stacks = []
        for stacks_item_data in self.stacks:
            stacks_item = stacks_item_data

            stacks.append(stacks_item)

        teams = self.teams.to_dict()

        to_act = self.to_act

        tokens = self.tokens.to_dict()

        totals = self.totals

        turn: int | None
        turn = self.turn

        winner: None | str
        winner = self.winner

        winners: list[int] | None
        if isinstance(self.winners, list):
            winners = self.winners

        else:
            winners = self.winners

        your_team: None | str
        your_team = self.your_team

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "cases_now": cases_now,
                "game": game,
                "last_round": last_round,
                "phase": phase,
                "round": round_,
                "stacks": stacks,
                "teams": teams,
                "to_act": to_act,
                "tokens": tokens,
                "totals": totals,
                "turn": turn,
                "winner": winner,
                "winners": winners,
                "your_team": your_team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_danger_round_scored import DangerDangerRoundScored  # noqa: PLC0415
        from ..models.danger_danger_view_cases_now import DangerDangerViewCasesNow  # noqa: PLC0415
        from ..models.danger_danger_view_teams import DangerDangerViewTeams  # noqa: PLC0415
        from ..models.danger_danger_view_tokens import DangerDangerViewTokens  # noqa: PLC0415

        d = dict(src_dict)
        attempt = d.pop("attempt")

        cases_now = DangerDangerViewCasesNow.from_dict(d.pop("cases_now"))

        game = cast(Literal["danger-danger"], d.pop("game"))
        if game != "danger-danger":
            raise ValueError(f"game must match const 'danger-danger', got '{game}'")

        def _parse_last_round(data: object) -> DangerDangerRoundScored | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = DangerDangerRoundScored.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DangerDangerRoundScored | None, data)

        last_round = _parse_last_round(d.pop("last_round"))

        phase = check_danger_danger_view_phase(d.pop("phase"))

        round_ = d.pop("round")

        stacks = []
        _stacks = d.pop("stacks")
        for stacks_item_data in _stacks:
            stacks_item = cast(list[str], stacks_item_data)

            stacks.append(stacks_item)

        teams = DangerDangerViewTeams.from_dict(d.pop("teams"))

        to_act = cast(list[int], d.pop("to_act"))

        tokens = DangerDangerViewTokens.from_dict(d.pop("tokens"))

        totals = cast(list[int], d.pop("totals"))

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        def _parse_winner(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        winner = _parse_winner(d.pop("winner"))

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

        def _parse_your_team(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        your_team = _parse_your_team(d.pop("your_team"))

        danger_danger_view = cls(
            attempt=attempt,
            cases_now=cases_now,
            game=game,
            last_round=last_round,
            phase=phase,
            round_=round_,
            stacks=stacks,
            teams=teams,
            to_act=to_act,
            tokens=tokens,
            totals=totals,
            turn=turn,
            winner=winner,
            winners=winners,
            your_team=your_team,
        )

        danger_danger_view.additional_properties = d
        return danger_danger_view

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
