from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RegisterPlayer")


@_attrs_define
class RegisterPlayer:
    """
    Attributes:
        name (str): Shown to everyone at the table, in NFC. Refused (400 invalid_name): control, format (zero-width,
            bidi overrides and isolates), private-use and unassigned (in the server's Unicode version) characters, and a
            name of spaces alone; the pattern spells them out. No two names at one table may be equal under Unicode's
            compatibility caseless match, spaces at the ends and runs of them aside: "ANN", or "Ann" in fullwidth letters,
            cannot sit beside "Ann" (409 name_taken).
    """

    name: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        register_player = cls(
            name=name,
        )

        return register_player
