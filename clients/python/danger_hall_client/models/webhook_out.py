from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookOut")


@_attrs_define
class WebhookOut:
    """
    Attributes:
        created_at (str):
        events (list[str]):
        games (list[str]):
        id (str):
        url (str):
        failing_since (None | str | Unset):
        paused (None | str | Unset):
        secret (None | str | Unset):
    """

    created_at: str
    events: list[str]
    games: list[str]
    id: str
    url: str
    failing_since: None | str | Unset = UNSET
    paused: None | str | Unset = UNSET
    secret: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        events = self.events

        games = self.games

        id = self.id

        url = self.url

        failing_since: None | str | Unset
        if isinstance(self.failing_since, Unset):
            failing_since = UNSET
        else:
            failing_since = self.failing_since

        paused: None | str | Unset
        if isinstance(self.paused, Unset):
            paused = UNSET
        else:
            paused = self.paused

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "events": events,
                "games": games,
                "id": id,
                "url": url,
            }
        )
        if failing_since is not UNSET:
            field_dict["failing_since"] = failing_since
        if paused is not UNSET:
            field_dict["paused"] = paused
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        events = cast(list[str], d.pop("events"))

        games = cast(list[str], d.pop("games"))

        id = d.pop("id")

        url = d.pop("url")

        def _parse_failing_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failing_since = _parse_failing_since(d.pop("failing_since", UNSET))

        def _parse_paused(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paused = _parse_paused(d.pop("paused", UNSET))

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        webhook_out = cls(
            created_at=created_at,
            events=events,
            games=games,
            id=id,
            url=url,
            failing_since=failing_since,
            paused=paused,
            secret=secret,
        )

        webhook_out.additional_properties = d
        return webhook_out

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
