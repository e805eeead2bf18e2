from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.join_game_bot_type_0 import JoinGameBotType0, check_join_game_bot_type_0
from ..types import UNSET, Unset

T = TypeVar("T", bound="JoinGame")


@_attrs_define
class JoinGame:
    """
    Attributes:
        name (str): Shown to everyone at the table, in NFC. Refused (400 invalid_name): control, format (zero-width,
            bidi overrides and isolates), private-use and unassigned (in the server's Unicode version) characters, and a
            name of spaces alone; the pattern spells them out. No two names at one table may be equal under Unicode's
            compatibility caseless match, spaces at the ends and runs of them aside: "ANN", or "Ann" in fullwidth letters,
            cannot sit beside "Ann" (409 name_taken).
        bot (JoinGameBotType0 | None | Unset): A seat the service plays itself: "random" sends any legal command,
            "greedy" the game's heuristic. The bot sees only what its seat may see. No token is issued for it.
        entropy (str | Unset): Optional: any string, mixed into every shuffle of the game and recorded publicly.
            Default: ''.
        invite (None | str | Unset): A private game's invite, from its creator; without the right one, the private game
            is not found (404).
        seat (int | None | Unset): The seat to take, from 0; by default the lowest free seat. A seat taken is 409
            seat_taken, one beyond the game's seats 409 seat_out_of_range. In High Voltage's team mode the seat is the team
            (0 and 2 against 1 and 3); in Danger Danger the team is `team`, by default alternating by seat.
        team (None | str | Unset): Team games (danger-danger: "pink" or "yellow"): the team to join; by default the
            teams alternate by seat. Other games refuse it (409 no_teams).
        think_ms (int | None | Unset): A bot's pause before each move, in milliseconds (default 1000); only with `bot`
            (422 think_without_bot otherwise).
    """

    name: str
    bot: JoinGameBotType0 | None | Unset = UNSET
    entropy: str | Unset = ""
    invite: None | str | Unset = UNSET
    seat: int | None | Unset = UNSET
    team: None | str | Unset = UNSET
    think_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        elif isinstance(self.bot, str):
            bot = self.bot
        else:
            bot = self.bot

        entropy = self.entropy

        invite: None | str | Unset
        if isinstance(self.invite, Unset):
            invite = UNSET
        else:
            invite = self.invite

        seat: int | None | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team

        think_ms: int | None | Unset
        if isinstance(self.think_ms, Unset):
            think_ms = UNSET
        else:
            think_ms = self.think_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if bot is not UNSET:
            field_dict["bot"] = bot
        if entropy is not UNSET:
            field_dict["entropy"] = entropy
        if invite is not UNSET:
            field_dict["invite"] = invite
        if seat is not UNSET:
            field_dict["seat"] = seat
        if team is not UNSET:
            field_dict["team"] = team
        if think_ms is not UNSET:
            field_dict["think_ms"] = think_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_bot(data: object) -> JoinGameBotType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                bot_type_0 = check_join_game_bot_type_0(data)

                return bot_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JoinGameBotType0 | None | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))

        entropy = d.pop("entropy", UNSET)

        def _parse_invite(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invite = _parse_invite(d.pop("invite", UNSET))

        def _parse_seat(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))

        def _parse_think_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        think_ms = _parse_think_ms(d.pop("think_ms", UNSET))

        join_game = cls(
            name=name,
            bot=bot,
            entropy=entropy,
            invite=invite,
            seat=seat,
            team=team,
            think_ms=think_ms,
        )

        return join_game
