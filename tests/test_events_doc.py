"""docs/events.md against the code: its event tables name every event type of every game
with every field of its `data` (nested objects included), each with its JSON type and, for a
secret field, who may read it; and the rule it gives for `meta`, played through the API."""

from __future__ import annotations

import asyncio
import json
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from domain.kernel import Event, GameRules
from domain.kernel.table import TABLE_EVENTS
from domain.registry import GAMES
from tests.conftest import make_app
from tests.players import bot_table, events_of, new_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "events.md"
TABLE_SECTION = "The table's events"
# A field as the tables write it: `name` (type), the type holding no parentheses.
DECLARED = re.compile(r"`([a-z_]+)` \(([^()]*)\)")
NULL = type(None)


# The code's side ------------------------------------------------------------------------


def json_type(tp: Any, absent: bool = False) -> str:
    """A field's type in the notation of docs/events.md ("Event types")."""
    origin = get_origin(tp)
    if origin is Annotated:
        return json_type(get_args(tp)[0], absent)
    if origin in (Union, types.UnionType):
        return " or ".join(
            "absent" if arg is NULL and absent else json_type(arg) for arg in get_args(tp)
        )
    if origin is Literal:
        return " or ".join(json.dumps(value) for value in get_args(tp))
    if origin is list:
        return f"[{json_type(get_args(tp)[0])}]"
    if origin is dict:
        key, value = get_args(tp)
        return "object" if value is Any else f"{{{json_type(key)}: {json_type(value)}}}"
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return "object"
    names = {int: "int", str: "string", bool: "bool", float: "number", NULL: "null"}
    if tp in names:
        return names[tp]
    raise AssertionError(f"no notation in docs/events.md for the type {tp!r}")


def structs_in(tp: Any) -> list[tuple[str, type[msgspec.Struct]]]:
    """The objects a field holds, with the suffix its path takes: `[]` for a list's items."""
    origin = get_origin(tp)
    if origin is Annotated:
        return structs_in(get_args(tp)[0])
    if origin in (Union, types.UnionType):
        return [found for arg in get_args(tp) for found in structs_in(arg)]
    if origin is list:
        return [(f"[]{suffix}", s) for suffix, s in structs_in(get_args(tp)[0])]
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return [("", tp)]
    return []


def event_name(kind: type[Event]) -> str:
    return str(kind.__struct_config__.tag)


# The document's side --------------------------------------------------------------------


@dataclass
class Section:
    heading: str
    level: int
    rows: list[list[str]] = field(default_factory=list)
    """The first table's rows under the heading (its header and rule left out)."""
    header: list[str] = field(default_factory=list)


def sections(text: str) -> list[Section]:
    out: list[Section] = []
    table: list[list[str]] | None = None
    for line in text.splitlines():
        heading = re.match(r"^(#{2,4}) (.*)$", line)
        if heading:
            out.append(Section(heading[2], len(heading[1])))
            table = None
            continue
        if not out:
            continue
        here = out[-1]
        if line.startswith("|") and not here.header and table is None:
            here.header = cells(line)
            table = here.rows
        elif line.startswith("|") and table is here.rows:
            if not set(line) <= set("|- "):
                table.append(cells(line))
        elif table is not None:
            table = None  # the first table has ended; later ones are not read
    return out


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def declarations(text: str) -> list[tuple[str, str, str]]:
    """(name, type, the text up to the next field) of every field a data cell declares."""
    found = list(DECLARED.finditer(text))
    return [
        (m[1], m[2], text[m.end() : found[i + 1].start() if i + 1 < len(found) else len(text)])
        for i, m in enumerate(found)
    ]


def game_sections() -> dict[str, list[Section]]:
    """The sections of each game (and of the table, under TABLE_SECTION): its `###` heading
    and the `####` headings under it."""
    out: dict[str, list[Section]] = {}
    current: list[Section] | None = None
    for section in sections(DOC.read_text()):
        if section.level <= 2:
            current = None
        elif section.level == 3:
            named = re.search(r"\(`([a-z0-9-]+)`\)", section.heading)
            if section.heading.startswith(TABLE_SECTION):
                key = TABLE_SECTION
            elif named:
                key = named[1]
            else:
                current = None
                continue
            assert key not in out, f"docs/events.md has two sections for {key!r}"
            current = out[key] = [section]
        elif current is not None:
            current.append(section)
    return out


SECTIONS = game_sections()
SUBJECTS: dict[str, tuple[type[Event], ...]] = {
    TABLE_SECTION: TABLE_EVENTS,
    **{name: rules.events for name, rules in GAMES.items()},
}


def documented(subject: str) -> dict[str, str]:
    """type -> its data cell, from the subject's event table."""
    assert subject in SECTIONS, f"docs/events.md has no section for {subject!r}"
    main = SECTIONS[subject][0]
    assert main.header == ["type", "data"], f"{subject}: no `| type | data |` table"
    out: dict[str, str] = {}
    for row in main.rows:
        assert len(row) == 2, f"{subject}: a row that is not `| type | data |`: {row}"
        kind = re.fullmatch(r"`([a-z_]+)`", row[0])
        assert kind, f"{subject}: a row's type must be one `name`, not {row[0]!r}"
        assert kind[1] not in out, f"{subject}: `{kind[1]}` has two rows"
        out[kind[1]] = row[1]
    return out


def check_fields(
    where: str, struct: type[msgspec.Struct], declared: list[tuple[str, str, str]]
) -> list[str]:
    """What is wrong with the fields `declared` of `struct`, each problem naming its field."""
    problems = []
    absent = getattr(struct, "absent_if_none", ())
    code = {f.name: f.type for f in msgspec.structs.fields(struct)}
    names = [name for name, _, _ in declared]
    for name in code:
        if name not in names:
            problems.append(f"{where}: the field `{name}` is not documented")
    for name in names:
        if name not in code:
            problems.append(f"{where}: `{name}` is documented but is no field of the code")
        elif names.count(name) > 1:
            problems.append(f"{where}: `{name}` is documented twice")
    if not problems and names != list(code):
        problems.append(f"{where}: the fields are documented in another order than {list(code)}")
    secret = getattr(struct, "secret", None)
    for name, written, text in declared:
        if name not in code:
            continue
        wanted = json_type(code[name], name in absent)
        if written != wanted:
            problems.append(f"{where}: `{name}` is documented as ({written}), the code: ({wanted})")
        if secret is not None and name in secret.fields:
            marker = "**only" if secret.owners else "**secret to everyone"
            if marker not in text:
                problems.append(f"{where}: the secret field `{name}` is not marked {marker}…**")
        elif "**" in text:
            problems.append(f"{where}: `{name}` is marked secret but is not")
    return problems


def nested_problems(subject: str, kind: type[Event]) -> list[str]:
    """Every object inside the event's data has its own `####` table, named by its path."""
    problems: list[str] = []
    tables = {
        m[1]: s for s in SECTIONS[subject][1:] if (m := re.search(r"`([a-z_.\[\]]+)`", s.heading))
    }

    def walk(path: str, struct: type[msgspec.Struct]) -> None:
        for info in msgspec.structs.fields(struct):
            for suffix, inner in structs_in(info.type):
                inner_path = f"{path}.{info.name}{suffix}"
                section = tables.get(inner_path)
                if section is None:
                    problems.append(f"{subject}: no table for `{inner_path}`")
                    continue
                if section.header != ["field", "type and meaning"]:
                    problems.append(f"{subject}: `{inner_path}`: no `| field | type and meaning |`")
                    continue
                declared = []
                for row in section.rows:
                    name = re.fullmatch(r"`([a-z_]+)`", row[0])
                    typed = re.match(r"\(([^()]*)\)", row[1])
                    if not (name and typed):
                        problems.append(f"{subject}: `{inner_path}`: a row not `name` | (type): …")
                        continue
                    declared.append((name[1], typed[1], row[1][typed.end() :]))
                problems.extend(check_fields(f"{subject} `{inner_path}`", inner, declared))
                walk(inner_path, inner)

    walk(event_name(kind), kind)
    return problems


# The tables ------------------------------------------------------------------------------


def test_every_game_of_the_registry_has_its_section_and_no_other_is_there():
    assert set(SECTIONS) == set(SUBJECTS), (
        f"docs/events.md's sections {sorted(SECTIONS)} are not the table's and the games' "
        f"{sorted(SUBJECTS)}"
    )


@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_every_event_type_is_documented_and_no_other(subject):
    rows = documented(subject)
    kinds = [event_name(k) for k in SUBJECTS[subject]]
    missing = [k for k in kinds if k not in rows]
    unknown = [k for k in rows if k not in kinds]
    assert not missing, f"docs/events.md, {subject}: the events {missing} are not documented"
    assert not unknown, f"docs/events.md, {subject}: {unknown} are no events of {subject}"


@pytest.mark.parametrize("subject", list(SUBJECTS))
def test_every_field_of_every_event_is_documented_with_its_type_and_secrecy(subject):
    rows = documented(subject)
    problems: list[str] = []
    for kind in SUBJECTS[subject]:
        name = event_name(kind)
        if name in rows:
            problems += check_fields(f"{subject} `{name}`", kind, declarations(rows[name]))
            problems += nested_problems(subject, kind)
    assert not problems, "docs/events.md:\n" + "\n".join(problems)


def test_the_check_names_what_is_missing():
    """The check itself: a field left out, a type miswritten, a secret unmarked, are named."""
    from domain.danger.messages import DeckShuffled

    cell = (
        '`reason` ("setup" or "reshuffle"): why; `size` (string): wrong; '
        "`order` ([string] or null): the stack"
    )
    problems = check_fields("danger `deck_shuffled`", DeckShuffled, declarations(cell))
    assert "danger `deck_shuffled`: the field `counter` is not documented" in problems
    assert any("`size` is documented as (string), the code: (int)" in p for p in problems)
    assert any("the secret field `order` is not marked" in p for p in problems)


def test_every_games_rules_list_their_events_once():
    """The registry is what the tables are compared with: each game's `.events` is complete
    as far as its decide can tell (a type named twice, or a table event among them, would
    hide a gap)."""
    for name, rules in GAMES.items():
        assert isinstance(rules, GameRules)
        kinds = [event_name(k) for k in rules.events]
        assert len(set(kinds)) == len(kinds), name
        assert not set(rules.events) & set(TABLE_EVENTS), name
        assert rules.final_event in rules.events, name


def test_every_event_the_code_defines_is_one_of_a_game_or_of_the_table():
    """An event type defined but listed in no game's `.events` would escape the tables."""
    every: list[type[Event]] = []
    todo = list(Event.__subclasses__())
    while todo:
        kind = todo.pop()
        every.append(kind)
        todo += kind.__subclasses__()
    listed = set(TABLE_EVENTS) | {k for rules in GAMES.values() for k in rules.events}
    stray = [
        f"{k.__module__}.{k.__name__}"
        for k in every
        if k.__module__.startswith("domain.") and k not in listed
    ]
    assert not stray, f"events in no game's `.events` nor TABLE_EVENTS: {stray}"


# The rule for `meta` ---------------------------------------------------------------------


def ring_and_after(events: list[dict[str, Any]], rang: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of the command that rang the timer: from `timer_rang` to the next command."""
    out = []
    for e in events:
        if e["seq"] < rang["seq"]:
            continue
        if e["seq"] > rang["seq"] and e["cause"] is not None:
            break
        out.append(e)
    return out


async def test_a_timer_a_seats_command_rings_inline_carries_that_requests_meta(valkey):
    """No worker runs: the round timer's deadline passes, then a team tries to go out. The
    timer rings first, inside the seat's request: its events carry that request's id."""
    app = make_app(valkey, background=False, queue="dg:timers:nobody")
    async with AsyncTestClient(app=app) as quiet:
        table = await new_table(quiet, seats=2, game="danger-danger", round_seconds=0.5)
        await asyncio.sleep(0.8)
        r = await table.send(0, {"type": "go_out"}, **{"X-Request-ID": "late-go-out"})
        assert r.status_code == 409 and r.json()["code"] == "too_late"
        events = await events_of(quiet, table.id)
        (rang,) = [e for e in events if e["type"] == "timer_rang"]
        assert rang["actor"] == "server" and rang["command"] is None
        assert rang["cause"]["type"] == "fire_timer"
        assert rang["meta"] == {"client_request": "late-go-out"}
        ring = ring_and_after(events, rang)
        assert [e["type"] for e in ring[:2]] == ["timer_rang", "round_scored"]
        assert ring[-1] is events[-1]  # the go_out itself wrote nothing
        assert all(e["meta"] == {"client_request": "late-go-out"} for e in ring)
        started = next(e for e in events if e["type"] == "game_started")
        assert started["meta"] != rang["meta"]  # the start's own request

        # The replayed round's timer, rung by a command with no id of its own: the one made.
        await asyncio.sleep(0.8)
        r = await table.send(1, {"type": "go_out"})
        assert r.status_code == 409 and r.json()["code"] == "too_late"
        made = r.headers["x-request-id"]
        assert re.fullmatch(r"req_[0-9a-f]{20}", made)
        events = await events_of(quiet, table.id)
        second = [e for e in events if e["type"] == "timer_rang"][1]
        assert all(e["meta"] == {"request": made} for e in ring_and_after(events, second))
        # The ids are hashed with the rest: the chain holds (the game runs: no more to audit).
        report = (await quiet.get(f"/v1/games/{table.id}/audit")).json()
        (chain,) = [c for c in report["checks"] if c["name"] == "hash_chain"]
        assert chain["ok"], report


async def test_a_timer_a_worker_rings_and_a_bots_move_carry_no_meta(client):
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=0.6)
    r = await table.send(0, {"type": "go_out"}, **{"X-Request-ID": "out-in-time"})
    assert r.status_code == 200
    assert all(e["meta"] == {"client_request": "out-in-time"} for e in r.json()["events"])
    for _ in range(150):
        events = await events_of(client, table.id)
        rang = [e for e in events if e["type"] == "timer_rang"]
        if rang:
            break
        await asyncio.sleep(0.1)
    assert rang, "the worker did not ring the round timer"
    assert rang[0]["actor"] == "server"
    assert all("meta" not in e for e in ring_and_after(events, rang[0]))

    game_id = await bot_table(client, seats=2, think_ms=0)
    for _ in range(150):
        moved = [e for e in await events_of(client, game_id) if e["actor"].startswith("seat:")]
        if moved:
            break
        await asyncio.sleep(0.05)
    assert moved, "no bot moved"
    assert all(e["command"] is None and "meta" not in e for e in moved)


async def test_the_length_bound_closes_the_log_inside_the_request_that_reached_it(valkey):
    app = make_app(valkey, max_events=30, background=False, queue="dg:timers:nobody")
    async with AsyncTestClient(app=app) as quiet:
        table = await new_table(quiet, seats=2)
        for n in range(40):
            state = await table.state()
            if state["status"] != "active":
                break
            seat = state["view"]["state"]["turn"]
            legal = (await table.state(seat))["legal"]
            r = await table.send(seat, legal[0], **{"X-Request-ID": f"cmd-{n}"})
            assert r.status_code == 200, r.text
        events = await events_of(quiet, table.id)
        abandoned, revealed = events[-2], events[-1]
        assert abandoned["type"] == "game_abandoned"
        assert abandoned["data"]["reason"] == "max_events" and abandoned["actor"] == "server"
        last_command = events[-3]
        assert last_command["actor"].startswith("seat:")
        assert abandoned["meta"] == revealed["meta"] == last_command["meta"]
        assert last_command["meta"]["client_request"].startswith("cmd-")
