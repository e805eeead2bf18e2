"""Commands answered beside Litestar's layers (service/http/command_route.py) are answered exactly
as Litestar's route answers them: the same seeded game played on an app with the direct
route and on one without gives the same answers, refusals included, word for word."""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient

from service.assembly.app import Hall
from service.infra.config import Rate, Rates, Settings
from tests.conftest import make_app
from tests.players import Table, first_to_act, new_table

SEED = "cd" * 16
# An event's time, its salt and the chain, and a receipt's signature of them.
VOLATILE = {"at", "salt", "prev", "hash", "meta", "signature"}
KEPT_HEADERS = {"date", "server", "x-request-id"}  # of the request, not of the answer
BASE = "http://testserver"
ADMIN = "<the table's admin token>"
LEFT = re.compile(r"r=\d+;t=\d+")  # what the bucket both apps take from has left


@pytest.fixture
async def pair(valkey: Any) -> AsyncIterator[tuple[AsyncTestClient, AsyncTestClient]]:
    """Two apps on one server: the direct route in front of Litestar's, and Litestar's alone."""
    # Limits on, out of the way: the route takes them as the middleware does.
    rates = Rates(**dict.fromkeys(Rates.__dataclass_fields__, Rate(100_000, 1)))
    direct = AsyncTestClient(app=make_app(valkey, sandbox=True, rate_limits=True, rates=rates))
    routed = AsyncTestClient(
        app=make_app(valkey, sandbox=True, rate_limits=True, rates=rates, direct_commands=False)
    )
    async with direct, routed:
        yield direct, routed


def _served(client: AsyncTestClient) -> int:
    app = client.app
    assert isinstance(app, Hall)
    return app.commands.served if app.commands is not None else 0


def _masked(value: Any, ids: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: "*" if k in VOLATILE else _masked(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v, ids) for v in value]
    if isinstance(value, str):
        for game_id in ids:
            value = value.replace(game_id, "<game>")
    return value


def _answer(r: Any, ids: set[str]) -> tuple[int, list[tuple[str, str]], Any]:
    """What a client reads of an answer, less what differs between two games or requests."""
    headers = [
        (k, LEFT.sub("r=*;t=*", v) if k == "ratelimit" else v)
        for k, v in r.headers.multi_items()
        if k not in KEPT_HEADERS | {"content-length"}
    ]
    headers = [
        (k, json.dumps(_masked(json.loads(v), ids)) if k == "danger-receipt" else v)
        for k, v in headers
    ]
    body = _masked(json.loads(r.content), ids) if r.content else None
    return r.status_code, headers, body


async def _both(
    direct: Table, routed: Table, seat: int, content: bytes, **headers: str
) -> tuple[Any, Any]:
    answers = []
    for table in (direct, routed):
        sent = {k: v.replace(ADMIN, table.admin) for k, v in headers.items()}
        answers.append(
            await table.client.post(
                f"/v1/games/{table.id}/commands",
                content=content,
                headers={"Content-Type": "application/json", **table.auth(seat), **sent},
            )
        )
    ids = {direct.id, routed.id}
    first, second = (_answer(a, ids) for a in answers)
    assert first == second, (answers[0].text, answers[1].text)
    return answers[0], answers[1]


async def test_a_seeded_game_played_both_ways_is_answered_alike(pair):
    direct_client, routed_client = pair
    tables = [
        await new_table(c, seats=3, game="danger-13", seed=SEED)
        for c in (direct_client, routed_client)
    ]
    before = _served(direct_client)
    choose = random.Random(7).choice
    minimal = {"Prefer": "return=minimal"}
    turns = 0
    while (await tables[0].state())["status"] != "finished":
        seat, legal = await first_to_act(tables[0])
        body = json.dumps(choose(legal)).encode()
        preference = minimal if turns % 3 == 2 else {}
        key = {"Idempotency-Key": str(uuid.uuid4())} if turns % 4 == 1 else {}
        first, _ = await _both(*tables, seat, body, **preference, **key)
        assert first.status_code in (200, 204), first.text
        if key:  # the retry answers the first answer again, on both
            again, _ = await _both(*tables, seat, body, **preference, **key)
            assert again.status_code == first.status_code
            assert (again.json() if again.content else None) == (
                first.json() if first.content else None
            )
        turns += 1
    assert _served(direct_client) - before >= turns  # the direct route did answer them
    assert _served(routed_client) == 0
    logs = [(await t.client.get(f"/v1/games/{t.id}/events")).json()["events"] for t in tables]
    assert _masked(logs[0], {t.id for t in tables}) == _masked(logs[1], {t.id for t in tables})


async def test_refusals_are_the_routes_own(pair):
    tables = [await new_table(c, seats=2, seed=SEED) for c in pair]
    seat, legal = await first_to_act(tables[0])
    other = 1 - seat
    good = json.dumps(legal[0]).encode()
    cases: list[tuple[int, bytes, dict[str, str]]] = [
        (other, good, {}),  # not this seat's turn: 409
        (seat, b'{"type": "no_such_command"}', {}),  # 400 invalid_body
        (seat, b'{"type": "draw"', {}),  # not JSON
        (seat, b'{"type": "draw", "extra": 1}', {}),
        (seat, b"[" * 5000, {}),  # nested beyond reason
        (seat, good, {"If-Match": "not-a-seq"}),  # 400 invalid_if_match
        (seat, good, {"If-Match": "0"}),  # 412: the game moved on
        (seat, good, {"Idempotency-Key": "x" * 129}),  # beyond the parameter's bound
        (seat, good, {"Idempotency-Key": "tab\there"}),
        (seat, good, {"Prefer": "return=minimal" + " " * 300}),
        (seat, good, {"Authorization": "Basic abc"}),  # 401 token_invalid
        (seat, good, {"Authorization": "Bearer nope"}),  # not a token of this game
        (seat, good, {"Authorization": f"Bearer {ADMIN}"}),  # the admin: 403
    ]
    for who, content, headers in cases:
        first, _ = await _both(*tables, who, content, **headers)
        assert first.status_code >= 400, (content, headers, first.text)
        assert first.headers["content-type"].startswith("application/problem+json")
    # An unknown game, and a command sent without a token.
    for client_headers in ({}, {"Authorization": f"Bearer {tables[0].tokens[seat]}"}):
        answers = [
            await c.post(
                "/v1/games/nosuchgame/commands",
                content=good,
                headers={"Content-Type": "application/json", **client_headers},
            )
            for c in pair
        ]
        assert _answer(answers[0], set()) == _answer(answers[1], set())
        assert answers[0].status_code in (401, 404)
    # Nothing refused was applied: the game still waits for the first command.
    assert (await tables[0].state())["seq"] == (await tables[1].state())["seq"]
    first, _ = await _both(*tables, seat, good)
    assert first.status_code == 200


async def test_the_route_answers_what_the_direct_route_leaves_to_it(pair):
    """A body in another media type, a CORS request, a repeated header: Litestar's route
    answers (the direct route is not used), and the body it reads is the one sent."""
    direct_client = pair[0]
    table = await new_table(direct_client, seats=2, seed=SEED)
    seat, legal = await first_to_act(table)
    served = _served(direct_client)
    r = await direct_client.post(
        f"/v1/games/{table.id}/commands",
        content=json.dumps(legal[0]).encode(),
        headers={**table.auth(seat), "Content-Type": "application/json; charset=utf-8"},
    )
    assert r.status_code == 200, r.text
    assert _served(direct_client) == served
    seat, legal = await first_to_act(table)
    r = await table.send(seat, legal[0], Origin="https://elsewhere.example")
    assert r.status_code == 200, r.text
    assert _served(direct_client) == served


async def test_a_body_in_several_parts_is_read_whole(valkey):
    """As uvicorn hands a large body over: several `http.request` messages."""
    app = make_app(valkey, sandbox=True)
    transport = httpx.ASGITransport(app=app)
    async with app.lifespan(), httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        table = await new_table(client, seats=2, seed=SEED)
        seat, legal = await first_to_act(table)
        body = json.dumps(legal[0]).encode()
        parts = [body[:3], body[3:7], body[7:]]
        messages = [
            {"type": "http.request", "body": p, "more_body": i < 2} for i, p in enumerate(parts)
        ]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        token = table.tokens[seat].encode()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/v1/games/{table.id}/commands",
            "raw_path": f"/v1/games/{table.id}/commands".encode(),
            "root_path": "",
            "query_string": b"",
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"authorization", b"Bearer " + token),
            ],
            "client": ("127.0.0.1", 4711),
            "server": ("testserver", 80),
            "state": {},
        }
        served = app.commands.served
        await app(scope, receive, send)
        assert sent[0]["status"] == 200, sent
        assert app.commands.served == served + 1
        answer = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
        assert answer["seq"] == (await table.state())["seq"]


def test_the_direct_route_is_on_unless_turned_off(monkeypatch):
    monkeypatch.delenv("DANGER_DIRECT_COMMANDS", raising=False)
    assert Settings.from_env().server.direct_commands is True
    monkeypatch.setenv("DANGER_DIRECT_COMMANDS", "off")
    assert Settings.from_env().server.direct_commands is False
