"""The committed spec is the one the app serves, and it documents what clients rely on."""

import json
from pathlib import Path

from service.assembly.app import create_app
from service.infra.config import Settings

SPEC = Path(__file__).parents[2] / "openapi" / "openapi.json"


def generated() -> dict:
    app = create_app(Settings().replace(background=False), "redis://127.0.0.1:0/0")
    return json.loads(json.dumps(app.openapi_schema.to_schema()))


def test_the_committed_spec_matches_the_app():
    assert json.loads(SPEC.read_text()) == generated(), (
        "openapi/openapi.json is stale: run `make openapi` and commit it"
    )


def test_the_command_body_is_a_discriminated_union_with_an_example_per_command():
    spec = generated()
    body = spec["paths"]["/v1/games/{game_id}/commands"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert schema["discriminator"]["propertyName"] == "type"
    from domain.registry import GAMES

    tags = {c.__struct_config__.tag for rules in GAMES.values() for c in rules.commands}
    assert len(tags) == sum(len(rules.commands) for rules in GAMES.values()), "tags are unique"
    assert len(schema["oneOf"]) == len(tags)
    examples = body["content"]["application/json"]["examples"]
    assert {e["value"]["type"] for e in examples.values()} == tags
    assert all(name.endswith(":" + e["value"]["type"]) for name, e in examples.items())


def test_errors_are_documented_as_problem_details():
    spec = generated()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                if method == "head":
                    assert "content" not in response, (path, status)
                elif status.startswith("4"):
                    assert list(response["content"]) == ["application/problem+json"], (
                        path,
                        method,
                        status,
                    )
