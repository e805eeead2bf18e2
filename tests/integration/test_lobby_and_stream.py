"""The lobby projection and the live event stream, on the real server."""

import asyncio

import httpx
import msgspec

from tests.conftest import wait_for
from tests.players import new_table


async def lobby_entry(client, game_id: str, seq: int = 0, **query):
    """The game's lobby entry once the projection has reached event `seq`."""

    async def find():
        r = await client.get("/v1/games", params={"limit": 100, **query})
        assert r.status_code == 200, r.text
        entry = next((g for g in r.json()["games"] if g["id"] == game_id), None)
        return entry if entry and entry["seq"] >= seq else None

    return find


async def test_the_lobby_follows_a_game_from_open_to_active(client):
    table = await new_table(client, seats=2, start=False)
    entry = await wait_for(await lobby_entry(client, table.id, seq=3, status="open"))
    assert entry["players"] == ["p0", "p1"] and entry["game"] == "danger"
    await client.post(
        f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
    )
    entry = await wait_for(await lobby_entry(client, table.id, status="active"))
    assert entry["seq"] >= 5
    r = await client.get("/v1/games", params={"status": "open", "limit": 100})
    assert table.id not in [g["id"] for g in r.json()["games"]]


async def test_the_lobby_paginates(client):
    for _ in range(3):
        table = await new_table(client, seats=2, start=False)
    await wait_for(await lobby_entry(client, table.id, seq=3))  # the projection caught up
    r = await client.get("/v1/games", params={"limit": 2, "offset": 0})
    first = r.json()
    assert len(first["games"]) == 2 and first["total"] >= 3
    r = await client.get("/v1/games", params={"limit": 2, "offset": 2})
    assert {g["id"] for g in r.json()["games"]}.isdisjoint({g["id"] for g in first["games"]})


async def test_the_stream_sends_events_as_they_are_appended_and_resumes(valkey):
    """Over a real socket: SSE needs a streaming client."""
    from tests.conftest import make_app, on_socket

    app = make_app(valkey, sandbox=True, background=False)
    app.state.keep_alive = 0.2
    async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as http:
        table = await new_table(http, seats=2)
        seen: list[dict] = []

        async def listen(headers):
            async with http.stream("GET", f"/v1/games/{table.id}/stream", headers=headers) as r:
                assert r.headers["content-type"].startswith("text/event-stream")
                async for line in r.aiter_lines():
                    if line.startswith("data:"):
                        seen.append(msgspec.json.decode(line[5:].strip()))
                        if seen[-1]["type"] == "turn_ended":
                            return

        listener = asyncio.create_task(listen({"Last-Event-ID": "3"}))
        await asyncio.sleep(0.3)
        await table.send(0, {"type": "draw"})
        await table.send(0, {"type": "end_turn"})
        await asyncio.wait_for(listener, 10)
        assert seen[0]["seq"] == 4  # resumed after Last-Event-ID
        assert [e["seq"] for e in seen] == list(range(4, 4 + len(seen)))
        assert any(e["type"] == "card_drawn" for e in seen)
        shuffled = [e for e in seen if e["type"] == "deck_shuffled"]
        assert all(e["data"]["order"] is None for e in shuffled)

        # a High Voltage seat reading the stream sees its own hand only, and no salt
        hv = await new_table(http, seats=3, game="high-voltage")
        dealt: list[dict] = []
        async with http.stream("GET", f"/v1/games/{hv.id}/stream", headers=hv.auth(0)) as r:
            async for line in r.aiter_lines():
                if line.startswith("data:"):
                    event = msgspec.json.decode(line[5:].strip())
                    if event["type"] == "hand_dealt":
                        dealt.append(event)
                    if len(dealt) == 3:
                        break
        for event in dealt:
            mine = event["data"]["seat"] == 0
            assert (event["data"]["cards"] is not None) == mine
            assert (event["salt"] is not None) == mine


async def test_a_cursor_page_stays_the_same_whatever_is_created_after(client):
    tables = [await new_table(client, seats=2, start=False, game="danger-13") for _ in range(5)]
    for table in tables:  # on a cluster each shard's entries come in their own time
        await wait_for(await lobby_entry(client, table.id, seq=3, game="danger-13"))
    query = {"status": "open", "game": "danger-13", "limit": 2}
    first = (await client.get("/v1/games", params=query)).json()
    assert [g["id"] for g in first["games"]] == [tables[-1].id, tables[-2].id]
    second = (await client.get("/v1/games", params={**query, "cursor": first["next"]})).json()
    assert [g["id"] for g in second["games"]] == [tables[-3].id, tables[-4].id]
    assert second["total"] >= 5 and {g["game"] for g in second["games"]} == {"danger-13"}
    # Newer games, of this kind and others, come before the cursor, not into its page.
    newer = await new_table(client, seats=2, start=False, game="danger-13")
    await new_table(client, seats=2, start=False)
    await wait_for(await lobby_entry(client, newer.id, seq=3, game="danger-13"))
    again = (await client.get("/v1/games", params={**query, "cursor": first["next"]})).json()
    assert again["games"] == second["games"]
    assert again["total"] == second["total"] + 1
    r = await client.get("/v1/games", params={**query, "cursor": "12.x/y"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
