from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_change_events_type_0_item import (
    WebhookChangeEventsType0Item,
    check_webhook_change_events_type_0_item,
)
from ..models.webhook_change_games_type_0_item import (
    WebhookChangeGamesType0Item,
    check_webhook_change_games_type_0_item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookChange")


@_attrs_define
class WebhookChange:
    """
    Attributes:
        events (list[WebhookChangeEventsType0Item] | None | Unset):
        games (list[WebhookChangeGamesType0Item] | None | Unset): The kinds of game heard; empty: every kind.
        paused (bool | None | Unset): true: hold the deliveries; false: send them again (after a pause for failures
            too).
        url (None | str | Unset): http(s) only
    """

    events: list[WebhookChangeEventsType0Item] | None | Unset = UNSET
    games: list[WebhookChangeGamesType0Item] | None | Unset = UNSET
    paused: bool | None | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events: list[str] | None | Unset
        if isinstance(self.events, Unset):
            events = UNSET
        elif isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item: str = events_type_0_item_data
                events.append(events_type_0_item)

        else:
            events = self.events

        games: list[str] | None | Unset
        if isinstance(self.games, Unset):
            games = UNSET
        elif isinstance(self.games, list):
            games = []
            for games_type_0_item_data in self.games:
                games_type_0_item: str = games_type_0_item_data
                games.append(games_type_0_item)

        else:
            games = self.games

        paused: bool | None | Unset
        if isinstance(self.paused, Unset):
            paused = UNSET
        else:
            paused = self.paused

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if events is not UNSET:
            field_dict["events"] = events
        if games is not UNSET:
            field_dict["games"] = games
        if paused is not UNSET:
            field_dict["paused"] = paused
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_events(data: object) -> list[WebhookChangeEventsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in _events_type_0:
                    events_type_0_item = check_webhook_change_events_type_0_item(events_type_0_item_data)

                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookChangeEventsType0Item] | None | Unset, data)

        events = _parse_events(d.pop("events", UNSET))

        def _parse_games(data: object) -> list[WebhookChangeGamesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                games_type_0 = []
                _games_type_0 = data
                for games_type_0_item_data in _games_type_0:
                    games_type_0_item = check_webhook_change_games_type_0_item(games_type_0_item_data)

                    games_type_0.append(games_type_0_item)

                return games_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookChangeGamesType0Item] | None | Unset, data)

        games = _parse_games(d.pop("games", UNSET))

        def _parse_paused(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        paused = _parse_paused(d.pop("paused", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        webhook_change = cls(
            events=events,
            games=games,
            paused=paused,
            url=url,
        )

        return webhook_change
