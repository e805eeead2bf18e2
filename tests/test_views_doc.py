"""docs/views.md against the code: each game's example is a view its view type decodes
strictly, holding every field of the view and nothing else; every field has its row in the
game's table; and the shared fields are there, first, under the same names in every game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.kernel.shared_view import SHARED_FIELDS
from domain.registry import GAMES

DOC = Path(__file__).resolve().parents[1] / "docs" / "views.md"
ROW = re.compile(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|", re.MULTILINE)


def section(name: str) -> str:
    """The text under the heading that names the game (`## Danger 13 (`danger-13`)`)."""
    text = DOC.read_text()
    start = text.index(f"(`{name}`)\n")
    end = text.find("\n## ", start)
    return text[start : None if end == -1 else end]


def example(name: str) -> bytes:
    found = re.findall(r"```json\n(.*?)```", section(name), re.DOTALL)
    assert len(found) == 1, f"docs/views.md: one example for {name}"
    return found[0].encode()


def view_fields(rules: Any) -> list[str]:
    return [f.name for f in msgspec.structs.fields(rules.view_type)]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_example_is_a_whole_view_of_its_game(name):
    rules = GAMES[name]
    raw = example(name)
    seen = msgspec.json.decode(raw, type=rules.view_type, strict=True)
    # Decoding ignores unknown keys, so the example is compared with its own re-encoding: a
    # key the view lacks, or a field the example lacks, shows as a difference.
    assert msgspec.json.decode(msgspec.json.encode(seen)) == msgspec.json.decode(raw)
    assert seen.turn is None or seen.to_act == [seen.turn]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_field_of_the_view_has_its_row(name):
    rows = ROW.findall(section(name))
    documented = [f.strip("`") for row in rows for f in row.split(", ")]
    assert documented == view_fields(GAMES[name])


def test_every_view_begins_with_the_shared_fields_of_the_same_types():
    types = {}
    for rules in GAMES.values():
        fields = {f.name: f.type for f in msgspec.structs.fields(rules.view_type)}
        assert view_fields(rules)[: len(SHARED_FIELDS)] == list(SHARED_FIELDS), rules.name
        types[rules.name] = {f: fields[f] for f in SHARED_FIELDS}
    hidden = types.pop("danger-13")  # its won cards lie face down: no totals until the end
    assert hidden == {**types["danger"], "totals": list[int] | None}
    for name, shared in types.items():
        assert shared == {
            "round": int,
            "turn": int | None,
            "to_act": list[int],
            "totals": list[int],
            "winners": list[int] | None,
        }, name
