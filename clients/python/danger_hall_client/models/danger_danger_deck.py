from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DangerDangerDeck")


@_attrs_define
class DangerDangerDeck:
    """Each team's deck, written without the initial (notation in docs/events.md). At most twice the default deck's count
    of each kind of card: 8 of each number (64 cards in all), 6 showing 5 Cases, 2 showing 10, 4 New Stack cards. A card
    left out counts 0.

        Attributes:
            field_1 (int | Unset): At most 8; 4 in the default deck. Default: 0.
            field_1n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_1x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_1x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_1x5 (int | Unset): At most 6; 0 in the default deck. Default: 0.
            field_1x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_2 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_2n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_2x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_2x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_2x5 (int | Unset): At most 6; 1 in the default deck. Default: 0.
            field_2x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_3 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_3n (int | Unset): At most 4; 1 in the default deck. Default: 0.
            field_3x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_3x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_3x5 (int | Unset): At most 6; 0 in the default deck. Default: 0.
            field_3x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_4 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_4n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_4x10 (int | Unset): At most 2; 1 in the default deck. Default: 0.
            field_4x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_4x5 (int | Unset): At most 6; 0 in the default deck. Default: 0.
            field_4x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_5 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_5x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_5x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_5x5 (int | Unset): At most 6; 1 in the default deck. Default: 0.
            field_5x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_6 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_6n (int | Unset): At most 4; 1 in the default deck. Default: 0.
            field_6x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_6x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_6x5 (int | Unset): At most 6; 0 in the default deck. Default: 0.
            field_6x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_7 (int | Unset): At most 8; 3 in the default deck. Default: 0.
            field_7n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_7x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_7x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_7x5 (int | Unset): At most 6; 1 in the default deck. Default: 0.
            field_7x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_8 (int | Unset): At most 8; 4 in the default deck. Default: 0.
            field_8n (int | Unset): At most 4; 0 in the default deck. Default: 0.
            field_8x10 (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_8x10n (int | Unset): At most 2; 0 in the default deck. Default: 0.
            field_8x5 (int | Unset): At most 6; 0 in the default deck. Default: 0.
            field_8x5n (int | Unset): At most 4; 0 in the default deck. Default: 0.
    """

    field_1: int | Unset = 0
    field_1n: int | Unset = 0
    field_1x10: int | Unset = 0
    field_1x10n: int | Unset = 0
    field_1x5: int | Unset = 0
    field_1x5n: int | Unset = 0
    field_2: int | Unset = 0
    field_2n: int | Unset = 0
    field_2x10: int | Unset = 0
    field_2x10n: int | Unset = 0
    field_2x5: int | Unset = 0
    field_2x5n: int | Unset = 0
    field_3: int | Unset = 0
    field_3n: int | Unset = 0
    field_3x10: int | Unset = 0
    field_3x10n: int | Unset = 0
    field_3x5: int | Unset = 0
    field_3x5n: int | Unset = 0
    field_4: int | Unset = 0
    field_4n: int | Unset = 0
    field_4x10: int | Unset = 0
    field_4x10n: int | Unset = 0
    field_4x5: int | Unset = 0
    field_4x5n: int | Unset = 0
    field_5: int | Unset = 0
    field_5n: int | Unset = 0
    field_5x10: int | Unset = 0
    field_5x10n: int | Unset = 0
    field_5x5: int | Unset = 0
    field_5x5n: int | Unset = 0
    field_6: int | Unset = 0
    field_6n: int | Unset = 0
    field_6x10: int | Unset = 0
    field_6x10n: int | Unset = 0
    field_6x5: int | Unset = 0
    field_6x5n: int | Unset = 0
    field_7: int | Unset = 0
    field_7n: int | Unset = 0
    field_7x10: int | Unset = 0
    field_7x10n: int | Unset = 0
    field_7x5: int | Unset = 0
    field_7x5n: int | Unset = 0
    field_8: int | Unset = 0
    field_8n: int | Unset = 0
    field_8x10: int | Unset = 0
    field_8x10n: int | Unset = 0
    field_8x5: int | Unset = 0
    field_8x5n: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        field_1 = self.field_1

        field_1n = self.field_1n

        field_1x10 = self.field_1x10

        field_1x10n = self.field_1x10n

        field_1x5 = self.field_1x5

        field_1x5n = self.field_1x5n

        field_2 = self.field_2

        field_2n = self.field_2n

        field_2x10 = self.field_2x10

        field_2x10n = self.field_2x10n

        field_2x5 = self.field_2x5

        field_2x5n = self.field_2x5n

        field_3 = self.field_3

        field_3n = self.field_3n

        field_3x10 = self.field_3x10

        field_3x10n = self.field_3x10n

        field_3x5 = self.field_3x5

        field_3x5n = self.field_3x5n

        field_4 = self.field_4

        field_4n = self.field_4n

        field_4x10 = self.field_4x10

        field_4x10n = self.field_4x10n

        field_4x5 = self.field_4x5

        field_4x5n = self.field_4x5n

        field_5 = self.field_5

        field_5n = self.field_5n

        field_5x10 = self.field_5x10

        field_5x10n = self.field_5x10n

        field_5x5 = self.field_5x5

        field_5x5n = self.field_5x5n

        field_6 = self.field_6

        field_6n = self.field_6n

        field_6x10 = self.field_6x10

        field_6x10n = self.field_6x10n

        field_6x5 = self.field_6x5

        field_6x5n = self.field_6x5n

        field_7 = self.field_7

        field_7n = self.field_7n

        field_7x10 = self.field_7x10

        field_7x10n = self.field_7x10n

        field_7x5 = self.field_7x5

        field_7x5n = self.field_7x5n

        field_8 = self.field_8

        field_8n = self.field_8n

        field_8x10 = self.field_8x10

        field_8x10n = self.field_8x10n

        field_8x5 = self.field_8x5

        field_8x5n = self.field_8x5n

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if field_1 is not UNSET:
            field_dict["1"] = field_1
        if field_1n is not UNSET:
            field_dict["1n"] = field_1n
        if field_1x10 is not UNSET:
            field_dict["1x10"] = field_1x10
        if field_1x10n is not UNSET:
            field_dict["1x10n"] = field_1x10n
        if field_1x5 is not UNSET:
            field_dict["1x5"] = field_1x5
        if field_1x5n is not UNSET:
            field_dict["1x5n"] = field_1x5n
        if field_2 is not UNSET:
            field_dict["2"] = field_2
        if field_2n is not UNSET:
            field_dict["2n"] = field_2n
        if field_2x10 is not UNSET:
            field_dict["2x10"] = field_2x10
        if field_2x10n is not UNSET:
            field_dict["2x10n"] = field_2x10n
        if field_2x5 is not UNSET:
            field_dict["2x5"] = field_2x5
        if field_2x5n is not UNSET:
            field_dict["2x5n"] = field_2x5n
        if field_3 is not UNSET:
            field_dict["3"] = field_3
        if field_3n is not UNSET:
            field_dict["3n"] = field_3n
        if field_3x10 is not UNSET:
            field_dict["3x10"] = field_3x10
        if field_3x10n is not UNSET:
            field_dict["3x10n"] = field_3x10n
        if field_3x5 is not UNSET:
            field_dict["3x5"] = field_3x5
        if field_3x5n is not UNSET:
            field_dict["3x5n"] = field_3x5n
        if field_4 is not UNSET:
            field_dict["4"] = field_4
        if field_4n is not UNSET:
            field_dict["4n"] = field_4n
        if field_4x10 is not UNSET:
            field_dict["4x10"] = field_4x10
        if field_4x10n is not UNSET:
            field_dict["4x10n"] = field_4x10n
        if field_4x5 is not UNSET:
            field_dict["4x5"] = field_4x5
        if field_4x5n is not UNSET:
            field_dict["4x5n"] = field_4x5n
        if field_5 is not UNSET:
            field_dict["5"] = field_5
        if field_5n is not UNSET:
            field_dict["5n"] = field_5n
        if field_5x10 is not UNSET:
            field_dict["5x10"] = field_5x10
        if field_5x10n is not UNSET:
            field_dict["5x10n"] = field_5x10n
        if field_5x5 is not UNSET:
            field_dict["5x5"] = field_5x5
        if field_5x5n is not UNSET:
            field_dict["5x5n"] = field_5x5n
        if field_6 is not UNSET:
            field_dict["6"] = field_6
        if field_6n is not UNSET:
            field_dict["6n"] = field_6n
        if field_6x10 is not UNSET:
            field_dict["6x10"] = field_6x10
        if field_6x10n is not UNSET:
            field_dict["6x10n"] = field_6x10n
        if field_6x5 is not UNSET:
            field_dict["6x5"] = field_6x5
        if field_6x5n is not UNSET:
            field_dict["6x5n"] = field_6x5n
        if field_7 is not UNSET:
            field_dict["7"] = field_7
        if field_7n is not UNSET:
            field_dict["7n"] = field_7n
        if field_7x10 is not UNSET:
            field_dict["7x10"] = field_7x10
        if field_7x10n is not UNSET:
            field_dict["7x10n"] = field_7x10n
        if field_7x5 is not UNSET:
            field_dict["7x5"] = field_7x5
        if field_7x5n is not UNSET:
            field_dict["7x5n"] = field_7x5n
        if field_8 is not UNSET:
            field_dict["8"] = field_8
        if field_8n is not UNSET:
            field_dict["8n"] = field_8n
        if field_8x10 is not UNSET:
            field_dict["8x10"] = field_8x10
        if field_8x10n is not UNSET:
            field_dict["8x10n"] = field_8x10n
        if field_8x5 is not UNSET:
            field_dict["8x5"] = field_8x5
        if field_8x5n is not UNSET:
            field_dict["8x5n"] = field_8x5n

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_1 = d.pop("1", UNSET)

        field_1n = d.pop("1n", UNSET)

        field_1x10 = d.pop("1x10", UNSET)

        field_1x10n = d.pop("1x10n", UNSET)

        field_1x5 = d.pop("1x5", UNSET)

        field_1x5n = d.pop("1x5n", UNSET)

        field_2 = d.pop("2", UNSET)

        field_2n = d.pop("2n", UNSET)

        field_2x10 = d.pop("2x10", UNSET)

        field_2x10n = d.pop("2x10n", UNSET)

        field_2x5 = d.pop("2x5", UNSET)

        field_2x5n = d.pop("2x5n", UNSET)

        field_3 = d.pop("3", UNSET)

        field_3n = d.pop("3n", UNSET)

        field_3x10 = d.pop("3x10", UNSET)

        field_3x10n = d.pop("3x10n", UNSET)

        field_3x5 = d.pop("3x5", UNSET)

        field_3x5n = d.pop("3x5n", UNSET)

        field_4 = d.pop("4", UNSET)

        field_4n = d.pop("4n", UNSET)

        field_4x10 = d.pop("4x10", UNSET)

        field_4x10n = d.pop("4x10n", UNSET)

        field_4x5 = d.pop("4x5", UNSET)

        field_4x5n = d.pop("4x5n", UNSET)

        field_5 = d.pop("5", UNSET)

        field_5n = d.pop("5n", UNSET)

        field_5x10 = d.pop("5x10", UNSET)

        field_5x10n = d.pop("5x10n", UNSET)

        field_5x5 = d.pop("5x5", UNSET)

        field_5x5n = d.pop("5x5n", UNSET)

        field_6 = d.pop("6", UNSET)

        field_6n = d.pop("6n", UNSET)

        field_6x10 = d.pop("6x10", UNSET)

        field_6x10n = d.pop("6x10n", UNSET)

        field_6x5 = d.pop("6x5", UNSET)

        field_6x5n = d.pop("6x5n", UNSET)

        field_7 = d.pop("7", UNSET)

        field_7n = d.pop("7n", UNSET)

        field_7x10 = d.pop("7x10", UNSET)

        field_7x10n = d.pop("7x10n", UNSET)

        field_7x5 = d.pop("7x5", UNSET)

        field_7x5n = d.pop("7x5n", UNSET)

        field_8 = d.pop("8", UNSET)

        field_8n = d.pop("8n", UNSET)

        field_8x10 = d.pop("8x10", UNSET)

        field_8x10n = d.pop("8x10n", UNSET)

        field_8x5 = d.pop("8x5", UNSET)

        field_8x5n = d.pop("8x5n", UNSET)

        danger_danger_deck = cls(
            field_1=field_1,
            field_1n=field_1n,
            field_1x10=field_1x10,
            field_1x10n=field_1x10n,
            field_1x5=field_1x5,
            field_1x5n=field_1x5n,
            field_2=field_2,
            field_2n=field_2n,
            field_2x10=field_2x10,
            field_2x10n=field_2x10n,
            field_2x5=field_2x5,
            field_2x5n=field_2x5n,
            field_3=field_3,
            field_3n=field_3n,
            field_3x10=field_3x10,
            field_3x10n=field_3x10n,
            field_3x5=field_3x5,
            field_3x5n=field_3x5n,
            field_4=field_4,
            field_4n=field_4n,
            field_4x10=field_4x10,
            field_4x10n=field_4x10n,
            field_4x5=field_4x5,
            field_4x5n=field_4x5n,
            field_5=field_5,
            field_5n=field_5n,
            field_5x10=field_5x10,
            field_5x10n=field_5x10n,
            field_5x5=field_5x5,
            field_5x5n=field_5x5n,
            field_6=field_6,
            field_6n=field_6n,
            field_6x10=field_6x10,
            field_6x10n=field_6x10n,
            field_6x5=field_6x5,
            field_6x5n=field_6x5n,
            field_7=field_7,
            field_7n=field_7n,
            field_7x10=field_7x10,
            field_7x10n=field_7x10n,
            field_7x5=field_7x5,
            field_7x5n=field_7x5n,
            field_8=field_8,
            field_8n=field_8n,
            field_8x10=field_8x10,
            field_8x10n=field_8x10n,
            field_8x5=field_8x5,
            field_8x5n=field_8x5n,
        )

        return danger_danger_deck
