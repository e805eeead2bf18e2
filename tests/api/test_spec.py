"""The committed spec is what the app's routes build, the app serves it as it is, and it
documents what clients rely on."""

import ast
import json
from pathlib import Path

from service.http import docs_ui
from service.spec import build

ROOT = Path(__file__).parents[2]
SPEC = ROOT / "openapi" / "openapi.json"


def generated() -> dict:
    return build.build()


def test_the_committed_spec_matches_the_app():
    assert build.text() == SPEC.read_text(), (
        "openapi/openapi.json is stale: run `make openapi` and commit it"
    )


async def test_the_service_serves_the_committed_spec_as_it_is(client):
    committed = SPEC.read_bytes()
    assert docs_ui.SPEC.read_bytes() == committed, (
        "service/http/openapi.json, the package's link to openapi/openapi.json, is not it"
    )
    r = await client.get("/schema/openapi.json")
    assert r.status_code == 200 and r.content == committed
    assert r.headers["content-type"] == "application/vnd.oai.openapi+json"
    r = await client.head("/schema/openapi.json")
    assert r.status_code == 200 and int(r.headers["content-length"]) == len(committed)
    for page in ("/schema", "/schema/swagger"):  # the page shows the same spec
        html = (await client.get(page)).text
        shown = html[html.index("spec: ") + len("spec: ") : html.index(",\n", html.index("spec: "))]
        assert json.loads(shown) == json.loads(committed), page
    for missing in ("/schema/openapi.yaml", "/schema/nothing"):
        assert (await client.get(missing)).status_code == 404


def test_nothing_the_service_runs_imports_the_spec_builder():
    """service/spec plays games to build the spec's examples: only `danger openapi` (inside
    its command) and the tests import it, never a serving process."""
    for source in sorted((ROOT / "service").rglob("*.py")):
        where = source.relative_to(ROOT)
        if where.parts[:2] == ("service", "spec"):
            continue
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n == "service.spec" or n.startswith("service.spec.") for n in names):
                at_top = node in tree.body
                assert str(where) == "service/cli/openapi.py" and not at_top, (where, node.lineno)


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
