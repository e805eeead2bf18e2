"""Games for the browser tests, played through the API: each seat a person sending a legal
command, so a whole game takes a second or two where bots would take many."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httpx

NAMES = ("Ann", "Bob", "Cyd", "Dot")
SEATS = {"danger": 3, "high-voltage": 3, "danger-13": 3, "danger-danger": 4}
TEAMS = {"danger-danger": ["pink", "yellow", "pink", "yellow"]}
MAX_COMMANDS = 5000


@dataclass(frozen=True)
class Game:
    id: str
    kind: str
    tokens: list[str]
    """Each seat's token, seat 0 first."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def played(
    http: httpx.AsyncClient,
    kind: str,
    commands: int | None = None,
    seats: int | None = None,
    first: str | None = None,
) -> Game:
    """A game of `kind` started with people at every seat, then played `commands` commands
    (None: to its end). `first` is a registered player's token, who takes seat 0."""
    seats = seats or SEATS[kind]
    created = (await http.post("/v1/games", json={"game": kind, "seats": seats})).json()
    game_id = created["id"]
    teams = TEAMS.get(kind, [None] * seats)
    tokens = []
    for seat in range(seats):
        body = {"name": NAMES[seat], **({"team": teams[seat]} if teams[seat] else {})}
        headers = bearer(first) if first and seat == 0 else {}
        joined = await http.post(f"/v1/games/{game_id}/players", json=body, headers=headers)
        assert joined.is_success, joined.text
        tokens.append(joined.json()["token"])
    started = await http.post(f"/v1/games/{game_id}/start", headers=bearer(created["admin_token"]))
    assert started.is_success, started.text
    sent = idle = 0
    while commands is None or sent < commands:
        assert sent < MAX_COMMANDS, f"{kind} did not end in {MAX_COMMANDS} commands"
        for token in tokens:
            game = (await http.get(f"/v1/games/{game_id}", headers=bearer(token))).json()
            if game["status"] != "active":
                return Game(game_id, kind, tokens)
            if game["legal"]:
                # To the end, Danger Danger's seats go out as soon as they may: short rounds.
                last = commands is None and kind == "danger-danger"
                command = game["legal"][-1 if last else 0]
                await http.post(
                    f"/v1/games/{game_id}/commands", json=command, headers=bearer(token)
                )
                sent += 1
                break
        else:  # a timer is due
            idle += 1
            assert idle < 100, f"no seat of the active {kind} game {game_id} may act"
            await asyncio.sleep(0.05)
    return Game(game_id, kind, tokens)
