"""The spec's examples: one for every request body, parameter and answer; each valid against
its schema; one per error code under the status that code comes with (which codes: see
test_problem_codes.py). And the request id and HEAD, as the spec documents them."""

from __future__ import annotations

import itertools
import re
from typing import Any

import jsonschema_rs
import msgspec
import pytest
from litestar.testing import AsyncTestClient

from domain.registry import GAMES
from service.http import problems
from service.spec import error_codes, spec_examples
from service.spec.openapi_spec import REQUEST_ID, REQUEST_ID_PATTERN, head_operation_id
from tests.api.problem_codes import spec
from tests.conftest import make_app

PROBLEM = problems.MEDIA


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        for part in node["$ref"].removeprefix("#/").split("/"):
            document = document[part]
        node = document
    return node


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    # The schema within the whole document, so that its `#/components/...` refs resolve.
    root = {"allOf": [schema], "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(root)


def test_every_body_parameter_and_answer_has_an_example():
    document = spec()
    missing = []
    for path, method, operation in operations(document):
        where = f"{method.upper()} {path}"
        for parameter in operation.get("parameters", []):
            if not resolve(document, parameter).get("examples"):
                missing.append(f"{where}: parameter {resolve(document, parameter)['name']}")
        for media, content in operation.get("requestBody", {}).get("content", {}).items():
            if not content.get("examples"):
                missing.append(f"{where}: request body {media}")
        for status, response in operation["responses"].items():
            if method == "head":
                assert "content" not in response, (where, status)
            for media, content in response.get("content", {}).items():
                if not content.get("examples"):
                    missing.append(f"{where}: {status} {media}")
            for name, header in response.get("headers", {}).items():
                assert "schema" in resolve(document, header), (where, name)
    assert not missing, "\n".join(missing)


def test_every_example_is_valid_against_its_schema():
    document = spec()
    checked, wrong = 0, []

    def check(where: str, schema: dict[str, Any], examples: dict[str, Any]) -> None:
        nonlocal checked
        valid = validator(document, schema)
        for name, example in examples.items():
            checked += 1
            for error in valid.iter_errors(example["value"]):
                wrong.append(f"{where} example {name!r}: {error.message} at {error.instance_path}")

    for path, method, operation in operations(document):
        where = f"{method.upper()} {path}"
        for parameter in operation.get("parameters", []):
            parameter = resolve(document, parameter)
            check(f"{where} {parameter['name']}", parameter["schema"], parameter["examples"])
        for media, content in operation.get("requestBody", {}).get("content", {}).items():
            check(f"{where} body {media}", content["schema"], content["examples"])
        for status, response in operation["responses"].items():
            for media, content in response.get("content", {}).items():
                check(f"{where} {status} {media}", content["schema"], content["examples"])
            for name, header in response.get("headers", {}).items():
                header = resolve(document, header)
                if header.get("examples"):
                    check(f"{where} {status} {name}", header["schema"], header["examples"])
    assert not wrong, "\n".join(wrong)
    assert checked > 400


def test_the_examples_are_what_the_service_answers():
    """The success examples are the service's own structs, played through its own rules:
    their ids are real ids, their envelopes hash-chain, the games' audits pass."""
    document = spec()
    game = document["paths"]["/v1/games"]["post"]["responses"]["201"]["content"]
    created = game["application/json"]["examples"]["public"]["value"]
    assert re.fullmatch(r"[A-Za-z0-9]{12}", created["id"])
    assert created["admin_token"].startswith(created["id"] + ".admin.")
    finished = document["paths"]["/v1/games/{game_id}/audit"]["get"]["responses"]["200"]
    report = finished["content"]["application/json"]["examples"]["finished"]["value"]
    assert report["ok"] and report["finished"] and report["verifiable"]
    assert {c["name"] for c in report["checks"]} >= {"hash_chain", "seed_commitment", "rules"}
    page = document["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]
    events = page["content"]["application/json"]["examples"]["page"]["value"]["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(e["prev"] == p["hash"] for p, e in itertools.pairwise(events))
    parameters = document["paths"]["/v1/games/{game_id}"]["get"]["parameters"]
    game_id = next(p for p in parameters if p["name"] == "game_id")
    assert game_id["examples"]["game"]["value"] == created["id"]


def test_each_problem_status_lists_its_codes_with_an_example_of_each():
    document = spec()
    for path, method, operation in operations(document):
        name = operation["operationId"]
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get(PROBLEM)
            if content is None:
                continue
            codes = error_codes.ERRORS[name][int(status)]
            assert list(content["examples"]) == list(codes), (name, status)
            for code, example in content["examples"].items():
                value = example["value"]
                assert (value["status"], value["code"]) == (int(status), code)
                assert value["type"].endswith("/" + code) and value["title"] and value["detail"]
                assert f"`{code}`" in response["description"], (name, status, code)
            named = set(re.findall(r"^- `([a-z0-9_]+)`", response["description"], re.M))
            assert named == set(codes), (path, method, status)


def test_the_listing_has_every_problem_status_of_every_operation_and_no_other():
    document = spec()
    documented = {}
    for _, method, operation in operations(document):
        if method == "head":
            continue
        statuses = {
            int(status)
            for status, response in operation["responses"].items()
            if PROBLEM in response.get("content", {})
        }
        if statuses:
            documented[operation["operationId"]] = statuses
    assert documented == {name: set(codes) for name, codes in error_codes.ERRORS.items()}
    for name, codes in error_codes.ERRORS.items():
        for listed in codes.values():
            assert len(set(listed)) == len(listed)
            for code in listed:  # each has its meaning and example (CODES, or a game's)
                assert error_codes.code_of(name, code).meaning


def test_every_operation_takes_a_request_id_and_every_answer_carries_one():
    document = spec()
    header = document["components"]["headers"][REQUEST_ID]
    assert header["required"] and header["schema"]["pattern"] == REQUEST_ID_PATTERN
    for _, _, operation in operations(document):
        sent = [p for p in operation["parameters"] if p["name"] == REQUEST_ID]
        assert [(p["in"], p["required"], p["schema"]["pattern"]) for p in sent] == [
            ("header", False, REQUEST_ID_PATTERN)
        ]
        for response in operation["responses"].values():
            ref = response["headers"][REQUEST_ID]["$ref"]
            assert ref == f"#/components/headers/{REQUEST_ID}"
    context = pytest.importorskip("service.infra.request_context")
    assert context.REQUEST_ID_PATTERN == REQUEST_ID_PATTERN
    made = context.new_request_id()
    assert re.fullmatch(REQUEST_ID_PATTERN, made)
    assert re.fullmatch(r"req_[0-9a-f]{20}", spec_examples.MADE_REQUEST_ID)


def test_a_head_beside_every_get_with_its_parameters_and_answers_without_a_body():
    document = spec()
    gets = 0
    for path, item in document["paths"].items():
        assert ("get" in item) == ("head" in item), path
        if "get" not in item:
            continue
        gets += 1
        get, head = item["get"], item["head"]
        assert head["operationId"] == head_operation_id(get["operationId"])
        assert head["parameters"] == get["parameters"]
        assert head.get("security") == get.get("security")
        assert set(head["responses"]) == set(get["responses"])
        for status, response in head["responses"].items():
            assert "content" not in response
            assert response["headers"] == get["responses"][status]["headers"]
    assert gets == 23
    assert head_operation_id("getGame") == "headGame"
    assert head_operation_id("listEvents") == "headListEvents"


# A value of each option that fixes the cards which its schema admits: the server refuses
# it for being a sandbox option, not for its shape.
SANDBOX_VALUES = {
    "seed": "00" * 32,
    ("danger", "deck"): ["R1"] * 108,
    ("high-voltage", "deck"): [10] * 20,
    ("danger-13", "stack"): ["1"],
    ("danger-danger", "stack"): {"pink": ["1"], "yellow": ["1"]},
}


async def test_only_the_options_that_fix_the_cards_need_a_sandbox_server(valkey):
    """What the create's description says: `seed` and each game's stack option (Danger's and
    High Voltage's `deck`, Danger 13's and Danger Danger's `stack`) need DANGER_SANDBOX=1; a
    deck composition (Danger 13's and Danger Danger's `deck`) does not."""
    description = spec()["paths"]["/v1/games"]["post"]["description"]
    async with AsyncTestClient(app=make_app(valkey, sandbox=False, background=False)) as plain:
        for name, rules in GAMES.items():
            seats = 4
            for option in rules.sandbox_options:
                assert f"`{option}`" in description
                value = SANDBOX_VALUES.get(option) or SANDBOX_VALUES[(name, option)]
                body = {"game": name, "seats": seats, "options": {option: value}}
                r = await plain.post("/v1/games", json=body)
                assert (r.status_code, r.json()["code"]) == (403, "sandbox_only"), (name, option)
            if rules.stack_option != "deck":  # its `deck` is a composition
                deck = msgspec.to_builtins(rules.options_type().deck)
                body = {"game": name, "seats": seats, "options": {"deck": deck}}
                r = await plain.post("/v1/games", json=body)
                assert r.status_code == 201, (name, r.text)


def test_a_table_keyed_by_an_operation_the_spec_lacks_fails_the_build(monkeypatch):
    """A renamed operationId (or a status gone) would lose its examples, codes or links
    without a word: the build names the key instead."""
    from service.spec import build

    answers = spec_examples.responses()
    answers["getPlayr"] = answers.pop("getPlayer")
    monkeypatch.setattr(spec_examples, "responses", lambda: answers)
    with pytest.raises(ValueError, match="responses/getPlayr/200"):
        build.build()
    monkeypatch.undo()
    overrides = {
        **error_codes.OVERRIDES,
        ("joinGam", "bot_seat"): error_codes.code_of("joinGame", "bot_seat"),
    }
    monkeypatch.setattr(error_codes, "OVERRIDES", overrides)
    with pytest.raises(ValueError, match=r"OVERRIDES names .*joinGam/bot_seat"):
        build.build()
