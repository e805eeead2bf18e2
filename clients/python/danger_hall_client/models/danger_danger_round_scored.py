from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.danger_danger_round_scored_reason import (
    DangerDangerRoundScoredReason,
    check_danger_danger_round_scored_reason,
)
from ..models.danger_danger_round_scored_winner_type_0 import (
    DangerDangerRoundScoredWinnerType0,
    check_danger_danger_round_scored_winner_type_0,
)

if TYPE_CHECKING:
    from ..models.danger_danger_round_scored_cases_type_0 import DangerDangerRoundScoredCasesType0
    from ..models.danger_danger_round_scored_tokens import DangerDangerRoundScoredTokens


T = TypeVar("T", bound="DangerDangerRoundScored")


@_attrs_define
class DangerDangerRoundScored:
    """
    Attributes:
        attempt (int):
        cases (DangerDangerRoundScoredCasesType0 | None):
        reason (DangerDangerRoundScoredReason):
        round_ (int):
        tokens (DangerDangerRoundScoredTokens):
        type_ (Literal['round_scored']):
        winner (DangerDangerRoundScoredWinnerType0 | None):
    """

    attempt: int
    cases: DangerDangerRoundScoredCasesType0 | None
    reason: DangerDangerRoundScoredReason
    round_: int
    tokens: DangerDangerRoundScoredTokens
    type_: Literal["round_scored"]
    winner: DangerDangerRoundScoredWinnerType0 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.danger_danger_round_scored_cases_type_0 import DangerDangerRoundScoredCasesType0  # noqa: PLC0415

        attempt = self.attempt

        cases: dict[str, Any] | None
        if isinstance(self.cases, DangerDangerRoundScoredCasesType0):
            cases = self.cases.to_dict()
        else:
            cases = self.cases

        reason: str = self.reason

        round_ = self.round_

        tokens = self.tokens.to_dict()

        type_ = self.type_

        winner: None | str
        if isinstance(self.winner, str):
            winner = self.winner
        else:
            winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "cases": cases,
                "reason": reason,
                "round": round_,
                "tokens": tokens,
                "type": type_,
                "winner": winner,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_danger_round_scored_cases_type_0 import DangerDangerRoundScoredCasesType0  # noqa: PLC0415
        from ..models.danger_danger_round_scored_tokens import DangerDangerRoundScoredTokens  # noqa: PLC0415

        d = dict(src_dict)
        attempt = d.pop("attempt")

        def _parse_cases(data: object) -> DangerDangerRoundScoredCasesType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cases_type_0 = DangerDangerRoundScoredCasesType0.from_dict(data)

                return cases_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DangerDangerRoundScoredCasesType0 | None, data)

        cases = _parse_cases(d.pop("cases"))

        reason = check_danger_danger_round_scored_reason(d.pop("reason"))

        round_ = d.pop("round")

        tokens = DangerDangerRoundScoredTokens.from_dict(d.pop("tokens"))

        type_ = cast(Literal["round_scored"], d.pop("type"))
        if type_ != "round_scored":
            raise ValueError(f"type must match const 'round_scored', got '{type_}'")

        def _parse_winner(data: object) -> DangerDangerRoundScoredWinnerType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                winner_type_0 = check_danger_danger_round_scored_winner_type_0(data)

                return winner_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DangerDangerRoundScoredWinnerType0 | None, data)

        winner = _parse_winner(d.pop("winner"))

        danger_danger_round_scored = cls(
            attempt=attempt,
            cases=cases,
            reason=reason,
            round_=round_,
            tokens=tokens,
            type_=type_,
            winner=winner,
        )

        danger_danger_round_scored.additional_properties = d
        return danger_danger_round_scored

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
