"""Player names: what is shown is all there is, two names alike never sit at one table, and a
name with `/` in it can be looked up."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest

from domain.kernel.table import caseless
from service.play import names

PROBLEM = "application/problem+json"


async def open_game(client, seats: int = 3) -> str:
    r = await client.post("/v1/games", json={"game": "danger", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


async def seated(client, game_id: str) -> tuple[int, list[str]]:
    body = (await client.get(f"/v1/games/{game_id}")).json()
    return body["seq"], [p["name"] for p in body["view"]["players"]]


@pytest.mark.parametrize(
    "name",
    [
        "\u200d",  # zero-width joiner alone: an invisible name (Cf)
        "\u202eevil",  # right-to-left override (Cf)
        "\u2067Ann\u2069",  # right-to-left isolate (Cf)
        "Ann\u200b",  # a zero-width space after a name already taken (Cf)
        "\ufeffAnn",  # byte order mark (Cf)
        "\U000e0041nn",  # a tag character (Cf)
        "bell\x07",  # control (Cc)
        "Ann\n",  # a trailing newline (Cc)
        "\x85",  # next line, a C1 control (Cc)
        "\ue000",  # private use (Co)
        "x\U000f0000",  # private use, plane 15 (Co)
        "x\u0378",  # unassigned (Cn)
        "\U0001ffff",  # a noncharacter (Cn)
        "   ",  # spaces alone (Zs)
        "\u3000\u00a0",  # ideographic and no-break spaces alone (Zs)
        "\u2028",  # a line separator alone (Zl)
        "a\u2028b",  # a line separator in a name (Zl)
        "a\u2029b",  # a paragraph separator in a name (Zp)
        "\u3164",  # a Hangul filler: a letter (Lo) that shows as nothing
        "\u2800",  # the blank Braille pattern (So)
        "Ann\ufe0f",  # a variation selector after a name already taken (Mn)
        "Ann\u034f",  # the combining grapheme joiner (Mn)
    ],
)
async def test_a_name_with_a_refused_character_is_400_invalid_name_and_changes_nothing(
    client, name
):
    game_id = await open_game(client)
    assert (await client.post(f"/v1/games/{game_id}/players", json={"name": "Ann"})).is_success
    before = await seated(client, game_id)
    r = await client.post(f"/v1/games/{game_id}/players", json={"name": name})
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["code"] == "invalid_name" and r.json()["detail"]
    assert await seated(client, game_id) == before


async def test_a_name_is_kept_and_shown_in_nfc(client):
    game_id = await open_game(client)
    r = await client.post(f"/v1/games/{game_id}/players", json={"name": "Zoe\u0308"})
    assert r.status_code == 201, r.text
    assert (await seated(client, game_id))[1] == ["Zo\u00eb"]
    events = (await client.get(f"/v1/games/{game_id}/events")).json()["events"]
    assert [e["data"]["name"] for e in events if e["type"] == "player_joined"] == ["Zo\u00eb"]


@pytest.mark.parametrize(
    "other",
    [
        "Ann",
        "ANN",
        "ann",
        "\uff21\uff4e\uff4e",  # "Ann" in fullwidth letters
        " Ann ",
        "\u1d2c\u207f\u207f",  # modifier letters: a compatibility form of "Ann"
    ],
)
async def test_a_name_like_one_at_the_table_is_409_name_taken(client, other):
    game_id = await open_game(client)
    assert (await client.post(f"/v1/games/{game_id}/players", json={"name": "Ann"})).is_success
    before = await seated(client, game_id)
    r = await client.post(f"/v1/games/{game_id}/players", json={"name": other})
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "name_taken"
    assert await seated(client, game_id) == before


async def test_canonically_equal_names_are_one_name_and_different_ones_sit_together(client):
    game_id = await open_game(client)
    url = f"/v1/games/{game_id}/players"
    assert (await client.post(url, json={"name": "Zo\u00eb"})).status_code == 201
    r = await client.post(url, json={"name": "Zoe\u0308"})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    for name in ["Zoe", "Zoë Ann"]:
        assert (await client.post(url, json={"name": name})).status_code == 201
    assert (await seated(client, game_id))[1] == ["Zo\u00eb", "Zoe", "Zoë Ann"]


def test_caseless_is_the_unicode_compatibility_caseless_match():
    assert caseless("Stra\u00dfe") == caseless("STRASSE")  # full case folding: ß is ss
    assert caseless("\u212b") == caseless("\u00e5") == caseless("A\u030a")  # Angstrom sign
    assert caseless("\ufb01x") == caseless("FIX")  # the fi ligature
    assert caseless("a  b") == caseless("a b") != caseless("ab")
    assert caseless("Ann") != caseless("Anne")


def test_the_specs_pattern_admits_exactly_the_names_that_are_accepted():
    """Every code point: the spec's pattern admits it alone exactly when it is neither
    refused nor a separator, and a separator only beside another character; so generated
    clients (and schemathesis) never send a name the service refuses, nor expect a refusal
    the service does not give."""
    pattern = re.compile(names.pattern())
    chars = [chr(p) for p in range(sys.maxunicode + 1) if not 0xD800 <= p <= 0xDFFF]
    admitted = map(pattern.fullmatch, chars)
    categories = map(unicodedata.category, chars)
    not_admitted = names.REFUSED.keys() | names.SEPARATORS
    disagree = [
        char
        for char, match, category in zip(chars, admitted, categories, strict=True)
        if (match is not None) != (category not in not_admitted and not names.blank(char))
    ]
    assert disagree == []
    separators = [c for c in chars if unicodedata.category(c) in names.SEPARATORS]
    for name in [*(f"a{c}" for c in separators), *(f"{c}a{c}" for c in separators)]:
        assert pattern.fullmatch(name) and names.normalised(name)
    for name in ["", "\u3000\u00a0 ", "\u2028\u2029"]:
        assert pattern.fullmatch(name) is None
