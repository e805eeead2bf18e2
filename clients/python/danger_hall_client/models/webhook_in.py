from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.webhook_in_events_item import WebhookInEventsItem, check_webhook_in_events_item
from ..models.webhook_in_games_item import WebhookInGamesItem, check_webhook_in_games_item
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookIn")


@_attrs_define
class WebhookIn:
    """
    Attributes:
        events (list[WebhookInEventsItem]):
        url (str): http(s) only
        games (list[WebhookInGamesItem] | Unset): The kinds of game heard; empty: every kind.
    """

    events: list[WebhookInEventsItem]
    url: str
    games: list[WebhookInGamesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item: str = events_item_data
            events.append(events_item)

        url = self.url

        games: list[str] | Unset = UNSET
        if not isinstance(self.games, Unset):
            games = []
            for games_item_data in self.games:
                games_item: str = games_item_data
                games.append(games_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if games is not UNSET:
            field_dict["games"] = games

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = check_webhook_in_events_item(events_item_data)

            events.append(events_item)

        url = d.pop("url")

        _games = d.pop("games", UNSET)
        games: list[WebhookInGamesItem] | Unset = UNSET
        if _games is not UNSET:
            games = []
            for games_item_data in _games:
                games_item = check_webhook_in_games_item(games_item_data)

                games.append(games_item)

        webhook_in = cls(
            events=events,
            url=url,
            games=games,
        )

        return webhook_in
