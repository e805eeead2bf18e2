"""No leaks: random games of all four kinds; at many moments, for every seat and for a
spectator, nothing they can read (view, events, replay, round summary, export, audit)
shows what the rules hide from them."""

import json
import random

import pytest

from domain.kernel.table import TABLE_EVENTS
from domain.registry import GAMES
from tests.players import new_table

# Fields of a view only the auditor (everyone, once the game is over) may see.
AUDITOR_ONLY = {
    "danger": ["stack"],
    "high-voltage": ["hands", "undealt"],
    "danger-13": ["all_won", "plus_signs", "packet", "pile"],
    "danger-danger": [],
}
# Fields of a view only the reader's own seat fills.
OWN_ONLY = {"high-voltage": ["hand", "choose_from"], "danger-13": ["won"]}


def check_event(game: str, event: dict, reader: int | None) -> None:
    kind = next(t for t in GAMES[game].events + _table_events() if _tag(t) == event["type"])
    secret = kind.secret
    if secret is not None:
        owners = [event["data"].get(o) for o in secret.owners]
        if reader is None or reader not in owners:
            for name in secret.fields:
                assert event["data"][name] is None, (reader, event)
            assert event["salt"] is None, (reader, event)
    if event["cause"] is not None and event["actor"].startswith("seat:"):
        assert event["actor"] == f"seat:{reader}", (reader, event)
    assert event["type"] != "seed_revealed"


def _tag(kind) -> str:
    return kind.__struct_config__.tag


def _table_events() -> tuple:
    return TABLE_EVENTS


def check_view(game: str, view: dict, reader: int | None) -> None:
    assert view["seed"] is None
    state = view["state"]
    if state is None:
        return
    for name in AUDITOR_ONLY[game]:
        assert state[name] is None, (reader, name)
    for team in (state.get("teams") or {}).values() if game == "danger-danger" else []:
        assert team["pile"] is None
    if reader is None:
        for name in OWN_ONLY.get(game, []):
            assert state[name] is None, name


async def everything_read_by(client, table, reader: int | None) -> None:
    game = table.game
    headers = table.auth(reader) if reader is not None else {}
    base = f"/v1/games/{table.id}"
    got = (await client.get(base, headers=headers)).json()
    check_view(game, got["view"], reader)
    if game == "danger-danger":
        assert got["clocks"] == []
    seq = got["seq"]
    replay = (await client.get(f"{base}/replay", params={"seq": seq}, headers=headers)).json()
    check_view(game, replay["view"], reader)
    events = (await client.get(f"{base}/events", headers=headers)).json()["events"]
    summary = (await client.get(f"{base}/rounds/1", headers=headers)).json()
    export = (await client.get(f"{base}/export", headers=headers)).text.splitlines()
    for event in [*events, *summary.get("events", []), *(json.loads(line) for line in export)]:
        check_event(game, event, reader)
    audit = (await client.get(f"{base}/audit")).json()
    assert all(c["expected"] is None for c in audit["checks"])


@pytest.mark.parametrize("game", ["danger", "high-voltage", "danger-13", "danger-danger"])
async def test_nothing_hidden_is_readable_while_the_game_runs(client, game):
    rng = random.Random(game)
    options = {"round_seconds": 3600} if game == "danger-danger" else {}
    table = await new_table(client, seats=3, game=game, **options)
    table.game = game
    for step in range(60):
        if step % 12 == 0:
            for reader in (None, 0, 1, 2):
                await everything_read_by(client, table, reader)
        if (await table.state())["status"] != "active":
            break
        movers = [s for s in range(3) if (await table.state(s))["legal"]]
        seat = rng.choice(movers)
        legal = (await table.state(seat))["legal"]
        legal = [m for m in legal if m["type"] != "go_out"] or legal
        r = await table.send(seat, rng.choice(legal))
        assert r.status_code in (200, 409)
        for event in r.json().get("events", []):
            check_event(game, event, seat)


async def test_an_error_answer_tells_a_seat_only_what_it_may_know(client):
    """A seat trying to pick another seat's cards learns nothing of them from the refusal."""
    import re

    table = await new_table(client, seats=3, game="high-voltage")
    mine = (await table.state(1))["view"]["state"]["choose_from"]
    theirs = (await client.get(f"/v1/games/{table.id}", headers=table.auth(0))).json()
    theirs = theirs["view"]["state"]["choose_from"]
    asked = theirs[:3]
    r = await table.send(1, {"type": "pick", "cards": asked})
    assert r.status_code == 409 and r.json()["code"] == "card_not_offered"
    named = {int(n) for n in re.findall(r"\d+", r.json()["detail"])}
    assert named <= set(asked) | set(mine)


async def test_cors_is_off_by_default_and_configurable(valkey):
    from litestar.testing import AsyncTestClient

    from tests.conftest import make_app

    async with AsyncTestClient(app=make_app(valkey, background=False)) as plain:
        r = await plain.get("/health", headers={"Origin": "https://bot.example"})
        assert "access-control-allow-origin" not in r.headers
    app = make_app(valkey, background=False, cors_origins=("https://bot.example",))
    async with AsyncTestClient(app=app) as browser:
        r = await browser.get("/health", headers={"Origin": "https://bot.example"})
        assert r.headers["access-control-allow-origin"] == "https://bot.example"
