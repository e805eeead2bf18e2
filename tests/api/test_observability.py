"""What an operator sees of a request: its id (in the answer, its log line and the events it
wrote), HEAD wherever GET answers, one structured log line, and the metrics at /metrics."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re

import httpx
from prometheus_client.parser import text_string_to_metric_families

from events.audit import audit_export
from service.infra.logs import JsonLines
from tests.conftest import make_app, on_socket
from tests.players import bot_table, first_to_act, new_table, play_to_end

GOOD_ID = "support-ticket-4711:retry.2"


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics answer, by name and labels."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def scrape(client) -> dict:
    r = await client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return samples(r.text)


async def test_a_request_id_is_echoed_or_made_and_recorded_in_the_events_it_wrote(client):
    r = await client.post(
        "/v1/games", json={"game": "danger", "seats": 2}, headers={"X-Request-ID": GOOD_ID}
    )
    assert r.status_code == 201 and r.headers["x-request-id"] == GOOD_ID
    game_id = r.json()["id"]
    made = (await client.get(f"/v1/games/{game_id}")).headers["x-request-id"]
    assert made.startswith("req_") and made != GOOD_ID
    for refused in ("has space", "x" * 129, "tab\there", "ünïcode".encode()):
        r = await client.get(f"/v1/games/{game_id}", headers={"X-Request-ID": refused})
        assert r.headers["x-request-id"] != refused
        assert r.headers["x-request-id"].startswith("req_")
    # Errors too, routed or not.
    for path in ("/v1/games/nosuchgame", "/no/such/path"):
        r = await client.get(path, headers={"X-Request-ID": "err-1"})
        assert r.status_code == 404 and r.headers["x-request-id"] == "err-1"

    table = await new_table(client, seats=2)
    seat, legal = await first_to_act(table)
    r = await table.send(seat, legal[0], **{"X-Request-ID": "cmd-42"})
    assert r.status_code == 200, r.text
    written = r.json()["events"]
    # The client's own id is recorded as the client's: it says only what the client said.
    assert written and all(e["meta"] == {"client_request": "cmd-42"} for e in written)
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    first = {e["seq"] for e in written}
    mine = [e["meta"] for e in events if e["seq"] in first]
    assert mine == [{"client_request": "cmd-42"}] * len(first)
    assert events[0]["meta"]["request"].startswith("req_")  # the create, with a made id

    # The ids are in the hashed envelope: the finished game's export still audits clean.
    await play_to_end(table)
    export = (await client.get(f"/v1/games/{table.id}/export")).content
    assert b'"meta":{"client_request":"cmd-42"}' in export
    assert audit_export(export).ok


async def test_the_request_ids_the_service_makes_tell_nothing_of_one_another(client):
    made = [(await client.get("/health")).headers["x-request-id"] for _ in range(50)]
    assert all(re.fullmatch(r"req_[0-9a-f]{20}", m) for m in made) and len(set(made)) == 50
    numbers = [int(m[4:], 16) for m in made]
    steps = {b - a for a, b in itertools.pairwise(numbers)}
    assert len(steps) == len(numbers) - 1  # no counter shows through


async def test_a_tampered_request_id_breaks_the_chain(client):
    table = await new_table(client, seats=2)
    await play_to_end(table)
    export = (await client.get(f"/v1/games/{table.id}/export")).content
    lines = export.splitlines()
    event = json.loads(lines[0])
    event["meta"] = {"request": "someone-else"}
    lines[0] = json.dumps(event, separators=(",", ":")).encode()
    report = audit_export(b"\n".join(lines) + b"\n")
    assert not report.ok


async def test_the_server_timers_and_bots_write_no_request_id(client):
    game_id = await bot_table(client, seats=2)
    for _ in range(200):
        events = (await client.get(f"/v1/games/{game_id}/events")).json()["events"]
        moved = [e for e in events if e["actor"].startswith("seat:")]
        if moved:
            break
        await asyncio.sleep(0.05)
    assert moved and all("meta" not in e for e in moved)


async def test_head_answers_wherever_get_does_with_its_headers_and_no_body(client):
    table = await new_table(client, seats=2)
    paths = [
        "/health",
        "/v1/games",
        f"/v1/games/{table.id}",
        f"/v1/games/{table.id}/events",
        f"/v1/games/{table.id}/audit",
        f"/v1/games/{table.id}/replay?seq=1",
        f"/v1/games/{table.id}/export",
        "/v1/games/nosuchgame",
        "/",
        "/schema/openapi.json",
    ]
    for path in paths:
        got = await client.get(path)
        head = await client.head(path)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        for name in ("content-type", "etag", "cache-control"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)
    # A method nothing answers stays refused.
    assert (await client.request("PUT", f"/v1/games/{table.id}")).status_code == 405


async def test_head_of_a_stream_answers_its_headers_and_ends(valkey):
    app = make_app(valkey, background=False)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=5) as http:
        table = await new_table(http, seats=2)
        r = await asyncio.wait_for(http.head(f"/v1/games/{table.id}/stream"), 5)
        assert r.status_code == 200 and r.content == b""
        assert r.headers["content-type"].startswith("text/event-stream")
        for _ in range(100):  # the stream lets go of its subscriber
            if app.state.hub.open == 0:
                break
            await asyncio.sleep(0.01)
        assert app.state.hub.open == 0


async def test_each_request_is_one_json_log_line(client, caplog):
    table = await new_table(client, seats=2)
    caplog.set_level(logging.INFO, logger="danger.request")
    caplog.clear()
    seat, legal = await first_to_act(table)
    r = await table.send(seat, {"type": "no_such_command"}, **{"X-Request-ID": "log-1"})
    assert r.status_code == 400
    lines = [
        json.loads(JsonLines().format(record))
        for record in caplog.records
        if record.name == "danger.request"
    ]
    line = next(line for line in lines if line["request"]["id"] == "log-1")
    assert line["level"] == "info" and line["ts"].endswith("Z")
    assert line["request"] == {
        "id": "log-1",
        "method": "POST",
        "route": "/v1/games/{game_id}/commands",
        "path": f"/v1/games/{table.id}/commands",
        "status": 400,
        "ms": line["request"]["ms"],
        "game": table.id,
        "kind": line["request"]["kind"],
        "seat": line["request"]["seat"],
        "code": r.json()["code"],
        "client": "testclient",
    }
    assert line["request"]["ms"] > 0
    # A command that reached the game names its kind and seat.
    caplog.clear()
    assert (await table.send(seat, legal[0], **{"X-Request-ID": "log-2"})).status_code == 200
    record = next(r for r in caplog.records if getattr(r, "request", {}).get("id") == "log-2")
    assert record.request["kind"] == "danger" and record.request["seat"] == seat
    assert record.request["code"] is None


async def test_the_metrics_count_commands_by_game_and_outcome(client):
    table = await new_table(client, seats=2)
    before = await scrape(client)
    seat, legal = await first_to_act(table)
    key = {"Idempotency-Key": "metrics-1"}
    assert (await table.send(seat, legal[0], **key)).status_code == 200
    assert (await table.send(seat, legal[0], **key)).status_code == 200  # a repeat
    assert (await table.send(1 - seat, legal[0])).status_code == 409  # not its turn
    after = await scrape(client)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    count = "danger_command_duration_seconds_count"
    assert grew(count, game="danger", outcome="applied") == 1
    assert grew(count, game="danger", outcome="repeated") == 1
    assert grew(count, game="danger", outcome="refused") == 1
    assert grew("danger_idempotent_repeats_total") == 1
    assert grew("danger_appends_total", game="danger") >= 1  # bots of other tests play on
    assert grew("danger_events_appended_total", game="danger") >= 1
    route = "/v1/games/{game_id}/commands"
    assert (
        grew("danger_http_request_duration_seconds_count", route=route, method="POST", status="409")
        == 1
    )
    # Every family an operator's dashboard reads is declared from the start, samples or not.
    text = (await client.get("/metrics")).text
    declared = {line.split()[2] for line in text.splitlines() if line.startswith("# TYPE ")}
    assert {
        "danger_append_conflicts_total",
        "danger_rate_limited_total",
        "danger_timers_rung_total",
        "danger_timer_lateness_seconds",
        "danger_bot_moves_total",
        "danger_streams_open",
        "danger_stream_stood_aside_seconds_total",
        "danger_game_cache_games",
        "danger_game_cache_bytes",
        "danger_game_cache_misses_total",
        "danger_projection_lag_seconds",
        "danger_projection_backlog_entries",
    } <= declared


async def test_a_method_of_the_clients_own_adds_no_series_to_the_metrics(client):
    """HTTP/1.1 takes any token as a method: those outside HTTP's own are counted together."""
    before = await scrape(client)
    for method in ("FROBNICATE", "BREW", "X-1"):
        assert (await client.request(method, "/v1/games")).status_code == 405
    after = await scrape(client)
    count = "danger_http_request_duration_seconds_count"
    methods = {dict(labels).get("method") for name, labels in after if name == count}
    assert not methods & {"FROBNICATE", "BREW", "X-1"}

    def others(found: dict) -> float:
        return sum(
            v
            for (name, labels), v in found.items()
            if name == count and ("method", "other") in labels and ("status", "405") in labels
        )

    assert others(after) - others(before) == 3


async def test_the_metrics_count_bot_moves_and_timers_and_their_lateness(client):
    before = await scrape(client)
    game_id = await bot_table(client, seats=2)
    table = await new_table(client, seats=2, turn_seconds=1)
    for _ in range(100):
        after = await scrape(client)
        rung = value(after, "danger_timers_rung_total", game="danger", by="worker") + value(
            after, "danger_timers_rung_total", game="danger", by="inline"
        )
        moves = value(after, "danger_bot_moves_total", game="danger")
        if rung > value(before, "danger_timers_rung_total", game="danger", by="worker") + value(
            before, "danger_timers_rung_total", game="danger", by="inline"
        ) and moves > value(before, "danger_bot_moves_total", game="danger"):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"no timer rang in {table.id} or no bot moved in {game_id}")
    late = value(after, "danger_timer_lateness_seconds_count", by="worker") + value(
        after, "danger_timer_lateness_seconds_count", by="inline"
    )
    assert late >= rung
    assert value(after, "danger_game_cache_games") >= 2
    assert value(after, "danger_game_cache_bytes") > 0


async def test_the_metrics_count_rate_limit_refusals_and_open_streams(valkey):
    app = make_app(valkey, rate_limits=True, open_games_per_client=0, background=False)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        found = samples((await http.get("/metrics")).text)
        refused = value(found, "danger_rate_limited_total", kind="create")
        for _ in range(40):
            r = await http.post("/v1/games", json={"game": "danger", "seats": 2})
            if r.status_code == 429:
                break
        assert r.status_code == 429
        found = samples((await http.get("/metrics")).text)
        assert value(found, "danger_rate_limited_total", kind="create") >= refused + 1

        r = await http.get("/v1/games?limit=1")
        game_id = r.json()["games"][0]["id"]
        base = value(found, "danger_streams_open")
        async with http.stream("GET", f"/v1/games/{game_id}/stream") as stream:
            assert stream.status_code == 200
            found = samples((await http.get("/metrics")).text)
            assert value(found, "danger_streams_open") == base + 1
        for _ in range(50):
            found = samples((await http.get("/metrics")).text)
            if value(found, "danger_streams_open") == base:
                break
            await asyncio.sleep(0.05)
        assert value(found, "danger_streams_open") == base
