"""A registered player's games (`GET /v1/players/{id}/games` and its export): every game they
sit in, newest first, with their seat and result and the links to replay and audit it; paged
by a cursor that holds while games are created; private games for the player's own eyes."""

from __future__ import annotations

import json
import random

from tests.players import Table, bearer, new_table, play_to_end
from tests.projections import caught_up


async def register(client, name: str) -> dict:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


async def games_of(client, player_id: str, token: str | None = None, **params) -> dict:
    headers = bearer(token) if token else {}
    r = await client.get(f"/v1/players/{player_id}/games", params=params, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


async def export_of(client, player_id: str, token: str | None = None, **params) -> list[dict]:
    headers = bearer(token) if token else {}
    r = await client.get(f"/v1/players/{player_id}/games/export", params=params, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert r.text == "" or r.text.endswith("\n")
    return [json.loads(line) for line in r.text.splitlines()]


async def open_game(client, game: str = "danger", seats: int = 2, token: str | None = None) -> str:
    """A game of `seats` seats, the first taken by the player whose token is `token`."""
    table = await new_table(client, seats=seats, game=game, start=False, players=[token])
    return table.id


async def test_a_players_games_newest_first_with_seat_result_and_links(client):
    ann, bob = await register(client, "Ann"), await register(client, "Bob")
    # Finished: Bob in seat 0, Ann in seat 1.
    finished = await new_table(client, seats=2, players=[bob["token"], ann["token"]])
    await play_to_end(finished, choose=random.Random(5).choice)
    # Abandoned by its admin before the start.
    abandoned = await new_table(client, seats=3, start=False, players=[ann["token"]])
    r = await client.post(f"/v1/games/{abandoned.id}/abandon", headers=bearer(abandoned.admin))
    assert r.status_code == 200, r.text
    # Left before the start: not Ann's any more.
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    left = Table(client, r.json()["id"], r.json()["admin_token"])
    r = await client.post(
        f"/v1/games/{left.id}/players", json={"name": "Ann"}, headers=bearer(ann["token"])
    )
    seat_token = r.json()["token"]
    r = await client.delete(f"/v1/games/{left.id}/players/0", headers=bearer(seat_token))
    assert r.status_code == 200, r.text
    # Open, and active.
    waiting = await open_game(client, "danger-13", 3, ann["token"])
    active = await new_table(client, seats=2, players=[None, ann["token"]])
    await caught_up(client)

    page = await games_of(client, ann["id"])
    assert page["player"] == ann["id"] and not page["includes_private"]
    ids = [g["id"] for g in page["games"]]
    assert ids == [active.id, waiting, abandoned.id, finished.id]
    assert page["total"] == 4 and page["next"] is None and page["limit"] == 20
    by_id = {g["id"]: g for g in page["games"]}

    final = (await finished.state())["view"]["state"]
    done = by_id[finished.id]
    assert (done["status"], done["seat"], done["seats"]) == ("finished", 1, 2)
    assert done["game"] == "danger"
    assert done["result"] == ("won" if 1 in final["winners"] else "lost")
    assert done["score"] == final["totals"][1]
    assert done["last_seq"] == (await finished.state())["seq"]
    assert done["created_at"] < done["ended_at"]
    assert done["links"] == {
        "game": f"/v1/games/{finished.id}",
        "replay": f"/v1/games/{finished.id}/replay",
        "export": f"/v1/games/{finished.id}/export",
        "audit": f"/v1/games/{finished.id}/audit",
        "page": f"/games/{finished.id}",
    }
    assert (await client.get(done["links"]["audit"])).json()["ok"]
    r = await client.get(done["links"]["replay"], params={"seq": done["last_seq"]})
    assert r.status_code == 200 and r.json()["status"] == "finished"

    gone = by_id[abandoned.id]
    assert (gone["status"], gone["result"], gone["score"], gone["seat"]) == (
        "abandoned",
        "abandoned",
        None,
        0,
    )
    assert gone["ended_at"] is not None and gone["last_seq"] is not None
    for playing, status in ((waiting, "open"), (active.id, "active")):
        entry = by_id[playing]
        assert (entry["status"], entry["result"], entry["ended_at"]) == (status, "playing", None)
        assert entry["score"] is None and entry["last_seq"] is None
    assert by_id[active.id]["seat"] == 1 and by_id[waiting]["game"] == "danger-13"

    # Filters: by kind, by result, both.
    assert [g["id"] for g in (await games_of(client, ann["id"], game="danger-13"))["games"]] == [
        waiting
    ]
    playing = await games_of(client, ann["id"], result="playing")
    assert [g["id"] for g in playing["games"]] == [active.id, waiting] and playing["total"] == 2
    outcome = done["result"]
    assert [g["id"] for g in (await games_of(client, ann["id"], result=outcome))["games"]] == [
        finished.id
    ]
    assert (await games_of(client, ann["id"], result="abandoned", game="danger"))["total"] == 1
    assert (await games_of(client, ann["id"], result="abandoned", game="danger-13"))["games"] == []

    # Bob's list has the finished game alone, in his seat.
    bobs = await games_of(client, bob["id"])
    assert [(g["id"], g["seat"]) for g in bobs["games"]] == [(finished.id, 0)]
    assert bobs["games"][0]["result"] != outcome or set(final["winners"]) == {0, 1}

    # The game moves on: the active one ends, its entry with it.
    await play_to_end(active, choose=random.Random(6).choice)
    await caught_up(client)
    entry = (await games_of(client, ann["id"], result="playing"))["games"]
    assert [g["id"] for g in entry] == [waiting]
    over = next(g for g in (await games_of(client, ann["id"]))["games"] if g["id"] == active.id)
    assert over["status"] == "finished" and over["result"] in ("won", "lost")

    # The export holds the same entries, in the same order.
    assert await export_of(client, ann["id"]) == (await games_of(client, ann["id"]))["games"]


async def test_the_cursor_pages_stay_whole_while_games_are_created(client):
    ann = await register(client, "Ann")
    first = [await open_game(client, token=ann["token"]) for _ in range(5)]
    await caught_up(client)
    page = await games_of(client, ann["id"], limit=2)
    seen = [g["id"] for g in page["games"]]
    assert seen == first[::-1][:2] and page["total"] == 5
    newer = [await open_game(client, token=ann["token"]) for _ in range(3)]
    await caught_up(client)
    while page["next"] is not None:
        page = await games_of(client, ann["id"], limit=2, cursor=page["next"])
        seen += [g["id"] for g in page["games"]]
    assert seen == first[::-1]  # nothing twice, nothing missed, none of the newer
    fresh = await games_of(client, ann["id"], limit=100)
    assert [g["id"] for g in fresh["games"]] == [*newer[::-1], *first[::-1]]
    assert fresh["total"] == 8 and fresh["next"] is None
    # A last page exactly full says so with a cursor; the page after it is empty.
    full = await games_of(client, ann["id"], limit=8)
    assert full["next"] is not None
    assert (await games_of(client, ann["id"], cursor=full["next"]))["games"] == []


async def test_a_private_game_is_listed_to_its_player_alone(client):
    ann, bob = await register(client, "Ann"), await register(client, "Bob")
    public = await open_game(client, token=ann["token"])
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2, "visibility": "private"})
    private, invite = r.json()["id"], r.json()["invite"]
    r = await client.post(
        f"/v1/games/{private}/players",
        json={"name": "Ann", "invite": invite},
        headers=bearer(ann["token"]),
    )
    assert r.status_code == 201, r.text
    await caught_up(client)

    for token in (None, bob["token"]):  # anyone, and another player
        page = await games_of(client, ann["id"], token)
        assert [g["id"] for g in page["games"]] == [public] and page["total"] == 1
        assert not page["includes_private"]
        assert [g["id"] for g in await export_of(client, ann["id"], token)] == [public]
        playing = await games_of(client, ann["id"], token, result="playing", game="danger")
        assert [g["id"] for g in playing["games"]] == [public]
    own = await games_of(client, ann["id"], ann["token"])
    assert [g["id"] for g in own["games"]] == [private, public] and own["includes_private"]
    assert own["games"][0]["private"] and not own["games"][1]["private"]
    assert [g["id"] for g in await export_of(client, ann["id"], ann["token"])] == [private, public]


async def test_the_export_is_bounded_by_max_and_filtered_as_the_list(client):
    ann = await register(client, "Ann")
    made = [await open_game(client, token=ann["token"]) for _ in range(3)]
    made.append(await open_game(client, "danger-13", 3, ann["token"]))
    await caught_up(client)
    everything = await export_of(client, ann["id"])
    assert [g["id"] for g in everything] == made[::-1]
    assert [g["id"] for g in await export_of(client, ann["id"], max=2)] == made[::-1][:2]
    assert [g["id"] for g in await export_of(client, ann["id"], game="danger")] == made[2::-1]
    assert await export_of(client, ann["id"], result="won") == []
    nobody = await register(client, "Nobody")
    assert await export_of(client, nobody["id"]) == []
    assert (await games_of(client, nobody["id"]))["games"] == []


async def test_bad_input_is_answered_with_problem_details(client):
    ann = await register(client, "Ann")
    base = f"/v1/players/{ann['id']}/games"
    for path in (base, f"{base}/export"):
        r = await client.get(path.replace(ann["id"], "nobody0000000000"))
        assert r.status_code == 404 and r.json()["code"] == "unknown_player"
        r = await client.get(path, params={"result": "drawn"})
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
        r = await client.get(path, params={"game": "chess"})
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
        r = await client.get(path, headers=bearer("dhp_nobody0000000000_xyz"))
        assert r.status_code == 401 and r.json()["code"] == "player_token_invalid"
        r = await client.get(path, headers=bearer("Kz3q.s0.notaplayertoken"))
        assert r.status_code == 401 and r.json()["code"] == "player_token_invalid"
        r = await client.get(path, headers={"Authorization": "Basic eA=="})
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
    for params in ({"cursor": "not a cursor"}, {"cursor": "12.ab-c"}, {"limit": 0}, {"limit": 101}):
        r = await client.get(base, params=params)
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter", params
    for cap in (0, 10_001):
        r = await client.get(f"{base}/export", params={"max": cap})
        assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"


async def test_the_export_reads_and_sends_a_page_at_a_time_and_misses_nothing(client, monkeypatch):
    from service.http import players_api

    monkeypatch.setattr(players_api, "EXPORT_PAGE", 2)  # five games: three reads
    ann = await register(client, "Ann")
    made = [await open_game(client, token=ann["token"]) for _ in range(5)]
    await caught_up(client)
    newest = made[::-1]
    assert [g["id"] for g in await export_of(client, ann["id"])] == newest
    for cap in (1, 2, 3, 4, 5, 6):
        assert [g["id"] for g in await export_of(client, ann["id"], max=cap)] == newest[:cap]
