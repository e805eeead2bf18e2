from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="TeamPiles")


@_attrs_define
class TeamPiles:
    """Sandbox only: each team's draw pile, top first.

    Attributes:
        pink (list[str]):
        yellow (list[str]):
    """

    pink: list[str]
    yellow: list[str]

    def to_dict(self) -> dict[str, Any]:
        pink = self.pink

        yellow = self.yellow

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pink": pink,
                "yellow": yellow,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pink = cast(list[str], d.pop("pink"))

        yellow = cast(list[str], d.pop("yellow"))

        team_piles = cls(
            pink=pink,
            yellow=yellow,
        )

        return team_piles
