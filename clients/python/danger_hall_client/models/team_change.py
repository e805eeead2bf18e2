from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TeamChange")


@_attrs_define
class TeamChange:
    """
    Attributes:
        team (str): The team to move to (danger-danger: "pink" or "yellow").
    """

    team: str

    def to_dict(self) -> dict[str, Any]:
        team = self.team

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "team": team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        team = d.pop("team")

        team_change = cls(
            team=team,
        )

        return team_change
