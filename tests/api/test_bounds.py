"""Every option is bounded, in the spec and at the door: a request cannot make the service
deal a deck of a million cards, and a string is never taken for a number."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.danger_13.cards import DEFAULT_DECK as DANGER_13_DECK
from domain.danger_13.cards import MAXIMA as DANGER_13_MAXIMA
from domain.danger_danger.cards import DEFAULT_DECK as DANGER_DANGER_DECK
from domain.registry import GAMES
from tests.api.problem_codes import problem
from tests.api.test_spec import generated
from tests.players import new_table
from tests.stores import games_stored


async def refused(client: Any, body: dict[str, Any], status: int, code: str) -> dict[str, Any]:
    """POST /v1/games with `body`: refused as `status`/`code`."""
    return problem(await client.post("/v1/games", json=body), status, code)


def create(game: str, seats: int = 2, **options: Any) -> dict[str, Any]:
    return {"game": game, "seats": seats, "options": options}


@pytest.mark.parametrize("game", ["danger-danger", "danger-13"])
@pytest.mark.parametrize("count", [1_000_000, 10**24])
async def test_a_deck_bomb_is_refused_before_anything_is_stored(client, valkey, game, count):
    before = await games_stored(valkey)
    body = await refused(client, create(game, deck={"1": count}), 422, "option_out_of_range")
    assert "deck" in body["detail"]
    assert await games_stored(valkey) == before


async def test_a_deck_may_hold_twice_the_default_of_each_kind_and_no_more(client):
    # Danger Danger counts kinds across faces: 8 of each number, though each face allows 8.
    threes = {"3": 8, "3n": 1}
    await refused(client, create("danger-danger", deck=threes), 422, "option_out_of_range")
    fives = {"1x5": 3, "2x5": 3, "3x5": 1, "4": 8}
    await refused(client, create("danger-danger", deck=fives), 422, "option_out_of_range")
    hands = {**DANGER_13_DECK, "hand": DANGER_13_MAXIMA["hand"] + 1}
    await refused(client, create("danger-13", deck=hands), 422, "option_out_of_range")
    await refused(client, create("danger-13", deck={"1": -1, "4": 8}), 422, "option_out_of_range")


async def test_unknown_kinds_of_card_and_unplayable_decks_are_refused(client):
    await refused(client, create("danger-danger", deck={"9": 4, "1": 8}), 400, "invalid_body")
    await refused(client, create("danger-13", deck={"5": 4, "4": 8}), 400, "invalid_body")
    await refused(client, create("danger-danger", deck={"1": 7}), 422, "invalid_deck")
    await refused(client, create("danger-13", seats=3, deck={"4": 8}), 422, "invalid_deck")
    # Arrows go round for ever when no seat can ever reach its limit (docs/rulings.md).
    arrows = {"arrow": 6, "4": 6}  # worth 24: two seats hold 12 each below 13
    await refused(client, create("danger-13", deck=arrows), 422, "invalid_deck")


async def test_every_other_option_is_refused_beyond_its_bounds(client):
    for body in [
        create("danger", turn_seconds=86_401),
        create("danger", turn_seconds=0.5),
        create("danger", idle_minutes=10_081),
        create("danger", idle_minutes=0),
        create("danger-danger", round_seconds=3601),
        create("danger-danger", round_seconds=0.1),
        create("high-voltage", seats=3, turn_seconds=10**9),
        create("danger-13", idle_minutes=1e300),
    ]:
        await refused(client, body, 422, "option_out_of_range")
    await refused(client, {"game": "danger", "seats": 10**24}, 422, "seats_out_of_range")
    await refused(client, {"game": "danger-danger", "seats": 9}, 422, "seats_out_of_range")


@pytest.mark.parametrize(
    "body",
    [
        {"game": "danger", "seats": "3"},
        {"game": "danger", "seats": 3.5},
        {"game": "danger", "seats": True},
        create("danger", turn_seconds="30"),
        create("danger", idle_minutes="60"),
        create("danger-danger", round_seconds="5"),
        create("danger-13", deck={**DANGER_13_DECK, "hand": "8"}),
        create("high-voltage", seats=4, teams="true"),
    ],
)
async def test_a_string_or_other_type_is_never_taken_for_a_number(client, valkey, body):
    before = await games_stored(valkey)
    await refused(client, body, 400, "invalid_body")
    assert await games_stored(valkey) == before


async def test_a_whole_number_with_a_fraction_is_an_integer_as_in_json_schema(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 3.0})
    assert r.status_code == 201 and r.json()["seats"] == 3, r.text
    await refused(client, {"game": "danger", "seats": 7.0}, 422, "seats_out_of_range")


async def test_a_number_followed_by_what_is_not_json_is_a_bad_body_not_a_500(client):
    """The typed decoder stops at a number where an object belongs, before it reads on: the
    rest of the body must still be read as JSON, and its fault answered as the body's."""
    for body in (b"6.7\x05\xff", b"3.0 trailing", b"1.5]"):
        r = await client.post(
            "/v1/games", content=body, headers={"content-type": "application/json"}
        )
        assert (r.status_code, r.json()["code"]) == (400, "invalid_body"), (body, r.text)


async def test_join_and_commands_decode_strictly_too(client):
    game = (await client.post("/v1/games", json=create("danger-13"))).json()["id"]
    url = f"/v1/games/{game}/players"
    r = await client.post(url, json={"name": 5})
    assert r.status_code == 400 and r.json()["code"] == "invalid_body", r.text
    r = await client.post(url, json={"name": "Robo", "bot": "random", "think_ms": "10"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_body", r.text
    assert (await client.get(f"/v1/games/{game}")).json()["view"]["players"] == []

    table = await new_table(client, seats=2, game="danger-13")
    state = await table.state(0)
    before = state["seq"]
    give = next(m for m in state["legal"] if m["type"] == "give")
    r = await table.send(0, {"type": "give", "seat": str(give["seat"])})
    assert r.status_code == 400 and r.json()["code"] == "invalid_body", r.text
    assert (await table.state())["seq"] == before
    assert (await table.send(0, give)).status_code == 200


def _bounded(schema: dict[str, Any], components: dict[str, Any], where: str) -> None:
    """A property's schema states its most: a maximum, a length, a choice, or a struct all
    of whose properties do (and that takes no others)."""
    if "$ref" in schema:
        target = components[schema["$ref"].rsplit("/", 1)[-1]]
        assert target.get("additionalProperties") is False, where
        for name, prop in target["properties"].items():
            _bounded(prop, components, f"{where}.{name}")
        return
    branches = [b for b in schema.get("oneOf", []) if b.get("type") != "null"]
    if branches and not any(k in schema for k in ("maximum", "maxItems", "maxLength")):
        for branch in branches:
            _bounded(branch, components, where)
        return
    kinds = schema.get("type")
    if kinds == "boolean" or "enum" in schema or "const" in schema:
        return
    assert any(k in schema for k in ("maximum", "maxItems", "maxLength", "maxProperties")), where
    if "maximum" in schema:
        assert "minimum" in schema, where
    items = schema.get("items") or next((b["items"] for b in branches if "items" in b), None)
    if items is not None:
        _bounded(items, components, f"{where}[]")


def test_every_option_of_every_game_has_its_bounds_in_the_spec():
    spec = generated()
    components = spec["components"]["schemas"]
    for rules in GAMES.values():
        options = components[rules.options_type.__name__]
        assert set(options["properties"]) == {
            f.encode_name for f in msgspec.inspect.type_info(rules.options_type).fields
        }
        assert "idle_minutes" in options["properties"], rules.name
        for name, prop in options["properties"].items():
            assert prop.get("description"), f"{rules.name}.{name} is not documented"
            _bounded(prop, components, f"{rules.name}.{name}")
    for name, create_type in components.items():
        if name.startswith("Create") and name.endswith("Game"):
            _bounded(create_type["properties"]["seats"], components, f"{name}.seats")
    _bounded(components["JoinGame"]["properties"]["think_ms"], components, "think_ms")


def test_the_deck_compositions_name_every_kind_and_its_maximum():
    components = generated()["components"]["schemas"]
    danger_13 = components["Danger13Deck"]["properties"]
    assert {k: v["maximum"] for k, v in danger_13.items()} == DANGER_13_MAXIMA
    danger_danger = components["DangerDangerDeck"]["properties"]
    assert danger_danger["1"]["maximum"] == 8 and danger_danger["4x10"]["maximum"] == 2
    assert set(DANGER_DANGER_DECK) <= set(danger_danger)


async def test_the_largest_decks_allowed_start_and_deal(client):
    everything = {f"{n}": 8 for n in range(1, 9)}  # 64 cards a team: the most allowed
    table = await new_table(client, seats=2, game="danger-danger", deck=everything)
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    sizes = [e["data"]["size"] for e in events if e["type"] == "deck_shuffled"]
    assert sizes == [64, 64]
    assert events[0]["data"]["options"]["deck"] == everything  # recorded as it was asked

    table = await new_table(client, seats=5, game="danger-13", deck=DANGER_13_MAXIMA)
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert [e["data"]["size"] for e in events if e["type"] == "pile_shuffled"] == [218]
    state = await table.state(0)
    assert state["status"] == "active" and state["legal"]


async def test_a_deck_is_recorded_as_its_counts_and_the_default_as_the_default(client):
    table = await new_table(client, seats=2, start=False, game="danger-13")
    created = (await client.get(f"/v1/games/{table.id}/events")).json()["events"][0]
    assert created["data"]["options"]["deck"] == DANGER_13_DECK
    assert created["data"]["options"]["idle_minutes"] == 60.0
    deck = {"4": 8, "+1": 2, "1": 2, "hand": 0}
    table = await new_table(client, seats=2, start=False, game="danger-13", deck=deck)
    created = (await client.get(f"/v1/games/{table.id}/events")).json()["events"][0]
    assert created["data"]["options"]["deck"] == {"4": 8, "+1": 2, "1": 2}
