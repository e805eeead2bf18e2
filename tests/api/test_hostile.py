"""Hostile input: clear 4xx answers with stable codes, never a 500, never a state change."""

import pytest

from tests.players import new_table, seq_of


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5000 + b"]" * 5000,  # deep
        b'{"type": "draw", "x": ' + b"[" * 3000 + b"]" * 3000 + b"}",
        b'{"type": "protect", "colour": ' + b'"' + b"r" * 60_000 + b'"}',  # huge, under 64 KiB
        b'{"type": 7}',
        b'{"type": "draw", "type": "end_turn"}',
        b"\xff\xfe\x00",
        b"null",
        b'{"type": "protect", "colour": null}',
    ],
)
async def test_hostile_bodies_get_a_4xx_and_change_nothing(client, body):
    table = await new_table(client, seats=2)
    before = await seq_of(client, table.id)
    r = await client.post(
        f"/v1/games/{table.id}/commands",
        content=body,
        headers={**table.auth(0), "content-type": "application/json"},
    )
    assert 400 <= r.status_code < 500, r.text
    assert r.headers["content-type"].startswith("application/problem+json") and r.json()["code"]
    assert await seq_of(client, table.id) == before


async def test_unicode_names_are_kept_as_sent_and_returned_as_json(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    url = f"/v1/games/{r.json()['id']}/players"
    names = ["Zoë <script>", "名前😀"]
    for name in names:
        assert (await client.post(url, json={"name": name})).status_code == 201
    view = (await client.get(url.removesuffix("/players"))).json()["view"]
    assert [p["name"] for p in view["players"]] == names


async def test_a_seat_cannot_act_for_another_and_a_finished_game_takes_no_command(client):
    table = await new_table(client, seats=2)
    r = await table.send(1, {"type": "draw"})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    from tests.players import play_to_end

    await play_to_end(table)
    r = await table.send(0, {"type": "draw"})
    assert r.status_code == 409 and r.json()["code"] == "game_not_active"


@pytest.mark.parametrize(
    "path",
    [
        "/web/" + "a" * 300,  # longer than a file name may be
        "/web/a%00b",  # a NUL byte
        "/web/..%2fREADME.md",
        "/web/app.js%00.css",
        "/schema/assets/" + "b" * 300,
        "/schema/assets/a%00b",
    ],
)
async def test_a_file_that_is_not_there_is_404_whatever_its_name(client, path):
    r = await client.get(path)
    assert r.status_code == 404, r.text
    assert r.json()["code"] == "not_found"


async def test_the_web_clients_files_are_served_with_their_types_and_headers(client):
    r = await client.get("/web/app.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    again = await client.get("/web/app.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    r = await client.get("/schema/assets/swagger-ui.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ],
)
async def test_a_body_not_sent_as_json_is_415_and_creates_nothing(client, content_type):
    """A form, text/plain and multipart need no CORS preflight: any web page could make a
    visitor's browser send them. Only JSON is taken."""
    game = await new_table(client, seats=2, start=False)
    headers = {"content-type": content_type} if content_type else {}
    for url, body in [
        ("/v1/games", b'{"game": "danger", "seats": 3}'),
        ("/v1/players", b'{"name": "Mallory"}'),
        (f"/v1/games/{game.id}/players", b'{"name": "Mallory"}'),
    ]:
        r = await client.post(url, content=body, headers=headers)
        assert r.status_code == 415, (url, r.text)
        assert r.json()["code"] == "unsupported_media_type"
    assert [p["name"] for p in (await game.state())["view"]["players"]] == ["p0", "p1"]
    for media in ("application/json; charset=utf-8", "application/merge-patch+json"):
        r = await client.post(
            "/v1/games", content=b'{"game": "danger", "seats": 3}', headers={"content-type": media}
        )
        assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/v1/games", b'{"game": "danger", "seats": 3, "seats": 4}'),
        (
            "/v1/games",
            b'{"game": "danger", "seats": 3, "options": {"idle_minutes": 5, "idle_minutes": 9}}',
        ),
        ("/v1/players", b'{"name": "Ann", "name": "Bob"}'),
    ],
)
async def test_a_key_given_twice_is_400_and_changes_nothing(client, url, body):
    r = await client.post(url, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_body" and "twice" in r.json()["detail"]
