"""Bad requests get problem details with a stable code, and change nothing."""

import pytest

from tests.api.problem_codes import problem
from tests.players import new_table, seq_of


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "seats": 2}, "invalid_body"),
        ({"game": "danger", "seats": 1}, "seats_out_of_range"),
        ({"game": "danger", "seats": 7}, "seats_out_of_range"),
        ({"game": "danger", "seats": 3, "options": {"fourth_row_needs": "all"}}, "invalid_body"),
        ({"game": "danger", "seats": 3, "colour": "red"}, "invalid_body"),
        ({"game": "danger", "seats": 3, "options": {"deck": ["R1"]}}, "option_out_of_range"),
        ({"game": "danger", "seats": 3, "options": {"seed": "xyz"}}, "invalid_body"),
        ({"game": "danger", "seats": 3, "options": {"seed": "00" * 15}}, "invalid_body"),
        ({"game": "high-voltage", "seats": 3, "options": {"teams": True}}, "teams_need_four"),
        ({"game": "danger", "seats": 3, "options": {"deck": ["R1"] * 108}}, "invalid_deck"),
    ],
)
async def test_invalid_games_are_refused(client, body, code):
    status = 400 if code == "invalid_body" else 422
    problem(await client.post("/v1/games", json=body), status, code)


async def test_malformed_json_is_a_400(client):
    r = await client.post(
        "/v1/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    problem(r, 400, "invalid_body")


async def test_unknown_game_is_a_404(client):
    problem(await client.get("/v1/games/nope"), 404, "unknown_game")
    problem(await client.post("/v1/games/nope/players", json={"name": "x"}), 404, "unknown_game")


async def test_commands_need_a_seat_token(client):
    table = await new_table(client, seats=2)
    before = await seq_of(client, table.id)
    url = f"/v1/games/{table.id}/commands"
    problem(await client.post(url, json={"type": "draw"}), 401, "token_missing")
    bad = {"Authorization": "Bearer nonsense"}
    problem(await client.post(url, json={"type": "draw"}, headers=bad), 401, "token_invalid")
    forged = {"Authorization": f"Bearer {table.id}.s0.forged"}
    problem(await client.post(url, json={"type": "draw"}, headers=forged), 401, "token_invalid")
    admin = {"Authorization": f"Bearer {table.admin}"}
    problem(await client.post(url, json={"type": "draw"}, headers=admin), 403, "seat_only")
    other = await new_table(client, seats=2)
    r = await client.post(url, json={"type": "draw"}, headers=other.auth(0))
    problem(r, 403, "token_for_other_game")
    assert await seq_of(client, table.id) == before


async def test_a_seat_token_cannot_start_the_game(client):
    table = await new_table(client, seats=2, start=False)
    r = await client.post(f"/v1/games/{table.id}/start", headers=table.auth(0))
    problem(r, 403, "admin_only")


async def test_start_needs_every_seat(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 3})
    body = r.json()
    await client.post(f"/v1/games/{body['id']}/players", json={"name": "a"})
    r = await client.post(
        f"/v1/games/{body['id']}/start", headers={"Authorization": f"Bearer {body['admin_token']}"}
    )
    problem(r, 409, "seats_not_filled")


async def test_joining_a_full_or_started_game_is_refused(client):
    table = await new_table(client, seats=2)
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "late"})
    problem(r, 409, "game_not_open")


async def test_names_are_unique_and_limited(client):
    table = await new_table(client, seats=3, start=False)
    url = f"/v1/games/{table.id}/players"
    problem(await client.post(url, json={"name": "p0"}), 409, "game_full")
    r = await client.post("/v1/games", json={"game": "danger", "seats": 3})
    url = f"/v1/games/{r.json()['id']}/players"
    await client.post(url, json={"name": "Anton"})
    problem(await client.post(url, json={"name": "Anton"}), 409, "name_taken")
    problem(await client.post(url, json={"name": "x" * 41}), 400, "invalid_body")
    problem(await client.post(url, json={"name": "   "}), 400, "invalid_name")


async def test_rule_violations_are_409_with_the_rule_as_code(client):
    table = await new_table(client, seats=3)
    before = await seq_of(client, table.id)
    problem(await table.send(1, {"type": "draw"}), 409, "not_your_turn")
    problem(await table.send(0, {"type": "end_turn"}), 409, "draw_first")
    problem(await table.send(0, {"type": "take_discard"}), 409, "no_discard_to_take")
    problem(await table.send(0, {"type": "protect", "colour": "pink"}), 400, "invalid_body")
    problem(await table.send(0, {"type": "fly"}), 400, "invalid_body")
    assert await seq_of(client, table.id) == before


async def test_commands_before_the_start_are_refused(client):
    table = await new_table(client, seats=2, start=False)
    problem(await table.send(0, {"type": "draw"}), 409, "game_not_active")


async def test_an_oversized_body_is_a_413(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 3, "pad": "x" * 70_000})
    problem(r, 413, "body_too_large")


async def test_if_match_refuses_a_stale_command(client):
    table = await new_table(client, seats=2)
    seq = await seq_of(client, table.id)
    problem(await table.send(0, {"type": "draw"}, **{"If-Match": str(seq - 1)}), 412, "stale_seq")
    assert (await table.send(0, {"type": "draw"}, **{"If-Match": f'"{seq}"'})).status_code == 200
    problem(await table.send(0, {"type": "draw"}, **{"If-Match": "soon"}), 400, "invalid_if_match")


async def test_a_retry_with_the_same_idempotency_key_returns_the_first_answer(client):
    table = await new_table(client, seats=2)
    first = await table.send(0, {"type": "draw"}, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    again = await table.send(0, {"type": "draw"}, **{"Idempotency-Key": "k1"})
    assert again.status_code == 200
    assert again.json() == first.json()
    assert await seq_of(client, table.id) == first.json()["seq"]
    other = await table.send(0, {"type": "end_turn"}, **{"Idempotency-Key": "k1"})
    problem(other, 422, "idempotency_key_reused")
    assert await seq_of(client, table.id) == first.json()["seq"]


async def test_sandbox_options_need_a_sandbox_server(valkey):
    from litestar.testing import AsyncTestClient

    from tests.conftest import make_app

    async with AsyncTestClient(app=make_app(valkey, sandbox=False, background=False)) as plain:
        r = await plain.post(
            "/v1/games", json={"game": "danger", "seats": 2, "options": {"seed": "00" * 32}}
        )
        problem(r, 403, "sandbox_only")


async def test_a_refused_command_is_refused_again_on_retry_with_its_key(client):
    table = await new_table(client, seats=2)
    first = await table.send(0, {"type": "end_turn"}, **{"Idempotency-Key": "early"})
    problem(first, 409, "draw_first")
    assert (await table.send(0, {"type": "draw"})).status_code == 200
    # the same request again: the first answer, though end_turn would be accepted now
    again = await table.send(0, {"type": "end_turn"}, **{"Idempotency-Key": "early"})
    assert again.status_code == 409 and again.json() == first.json()
    other = await table.send(0, {"type": "draw"}, **{"Idempotency-Key": "early"})
    problem(other, 422, "idempotency_key_reused")


@pytest.mark.parametrize(
    "header",
    [
        {"If-Match": "1" * 5000},
        {"If-Match": "\u00b2"},
        {"Authorization": "Bearer abc.s\u00b2.x"},
    ],
)
async def test_odd_header_values_are_4xx_not_500(client, header):
    table = await new_table(client, seats=2)
    headers = {**table.auth(0), **header}
    raw = {k: v.encode("latin-1") for k, v in headers.items()}
    r = await client.post(f"/v1/games/{table.id}/commands", json={"type": "draw"}, headers=raw)
    assert r.status_code in (400, 401), r.text


def test_a_seq_in_a_header_is_ascii_digits_of_sane_length():
    from service.http.params import (
        seq_number,
    )

    assert seq_number("12") == 12
    assert seq_number("\u00b2") is None and seq_number("1" * 5000) is None
