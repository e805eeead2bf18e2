"""Who may call what is in the spec (security schemes, per operation), 401 answers challenge
for a bearer token, and the docs page needs nothing but the service."""

from __future__ import annotations

import json
import re

from litestar.testing import AsyncTestClient

from service.infra.config import Settings
from service.spec import build
from service.spec.openapi_spec import head_operation_id
from tests.api.test_spec import generated
from tests.conftest import make_app
from tests.players import new_table

# operationId: the tokens it takes ({} : none needed)
TOKEN_OPERATIONS: dict[str, list[dict[str, list[str]]]] = {
    # An app key reads as a spectator does (no token).
    "getGame": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "listEvents": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "streamEvents": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "replayGame": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "exportGame": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "getRound": [{"seatToken": []}, {"adminToken": []}, {"appKey": []}, {}],
    "sendCommand": [{"seatToken": []}],
    "startGame": [{"adminToken": []}],
    # Without a token: the client that created the game (its app key, or its address).
    "abandonGame": [{"adminToken": []}, {"appKey": []}, {}],
    "listGames": [{}, {"appKey": []}],  # mine=true: the app key's own games
    "createGame": [{"appKey": []}, {}],  # in open mode; DANGER_AUTH=keys: [{"appKey": []}]
    "joinGame": [{"playerToken": []}, {"appKey": []}, {}],
    "registerPlayer": [{"appKey": []}, {}],
    # the player's own: their private games too
    "listPlayerGames": [{"playerToken": []}, {"appKey": []}, {}],
    "exportPlayerGames": [{"playerToken": []}, {"appKey": []}, {}],
    "streamPlayer": [{"playerToken": []}],  # the player's own alone
    "leaveSeat": [{"seatToken": []}, {"adminToken": []}],
    "changeTeam": [{"seatToken": []}, {"adminToken": []}],
    "reissueSeatToken": [{"seatToken": []}, {"adminToken": []}],
    "resignSeat": [{"seatToken": []}],
    "rematchGame": [{"seatToken": []}, {"adminToken": []}],
    "health": [{}, {"operatorToken": []}],  # the operators' token for `fresh` alone
    # The player's own, or the app key's that registered them.
    **{
        operation: [{"playerToken": []}, {"appKey": []}]
        for operation in ("requestQuickPlay", "getQuickPlay", "cancelQuickPlay")
    },
    # An app key's own webhooks.
    **{
        operation: [{"appKey": []}]
        for operation in (
            "createWebhook",
            "listWebhooks",
            "getWebhook",
            "changeWebhook",
            "deleteWebhook",
            "rotateWebhookSecret",
            "listWebhookDeliveries",
            "replayWebhookDelivery",
        )
    },
}
# HEAD takes what the GET beside it takes.
TOKEN_OPERATIONS |= {
    head_operation_id(get): TOKEN_OPERATIONS[get]
    for get in (
        "getGame",
        "listEvents",
        "streamEvents",
        "replayGame",
        "exportGame",
        "getRound",
        "health",
        "listPlayerGames",
        "exportPlayerGames",
        "streamPlayer",
        "listGames",
        "listWebhooks",
        "getWebhook",
        "listWebhookDeliveries",
        "getQuickPlay",
    )
}


def test_every_operation_that_takes_a_token_declares_which():
    spec = generated()
    schemes = {"appKey", "playerToken", "seatToken", "adminToken", "operatorToken"}
    assert set(spec["components"]["securitySchemes"]) == schemes
    for scheme in spec["components"]["securitySchemes"].values():
        assert scheme == {**scheme, "type": "http", "scheme": "bearer"} and scheme["description"]
    seen = set()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            op = operation["operationId"]
            # OpenAPI tools ignore a header parameter named Authorization
            assert "Authorization" not in {p["name"] for p in operation.get("parameters", [])}
            assert operation.get("security") == TOKEN_OPERATIONS.get(op), (path, method)
            if "401" in operation["responses"]:
                assert op in TOKEN_OPERATIONS
                assert "WWW-Authenticate" in operation["responses"]["401"]["headers"]
            seen.add(op)
    assert set(TOKEN_OPERATIONS) <= seen


async def test_in_keys_mode_the_spec_says_a_create_needs_an_app_key(valkey):
    """The committed spec is an open server's; one in keys mode serves it with what that
    mode changes, as `danger openapi` builds it for that mode (and for another bound on an
    audited export, the only other setting the spec names)."""
    settings = {"auth": "keys", "audit_upload_mb": 3}
    built = build.text(Settings().replace(background=False, **settings))
    async with AsyncTestClient(app=make_app(valkey, background=False, **settings)) as c:
        served = (await c.get("/schema/openapi.json")).content
    assert served.decode() == built
    spec = json.loads(served)
    audit = spec["paths"]["/v1/audit"]["post"]
    assert "At most 3 MiB" in audit["description"]
    assert spec["paths"]["/v1/games"]["post"]["security"] == [{"appKey": []}]
    assert spec["paths"]["/v1/players"]["post"]["security"] == [{"appKey": []}]
    assert spec["paths"]["/v1/games/{game_id}/players"]["post"]["security"] == [
        {"playerToken": []},
        {"appKey": []},
        {},
    ]


async def test_a_401_challenges_for_a_bearer_token(client):
    table = await new_table(client, seats=2)
    legal = (await table.state(0))["legal"][0]
    r = await client.post(f"/v1/games/{table.id}/commands", json=legal)
    assert r.status_code == 401 and r.json()["code"] == "token_missing"
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="danger-hall"'
    forged = f"{table.id}.s0.{'x' * 43}"
    r = await client.get(f"/v1/games/{table.id}", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401 and r.json()["code"] == "token_invalid"
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="danger-hall", error="invalid_token"'
    # The seat's own token is read as before.
    r = await client.get(f"/v1/games/{table.id}", headers=table.auth(0))
    assert r.status_code == 200 and legal in r.json()["legal"]


async def test_the_docs_page_loads_everything_from_the_service(client):
    for page in ("/schema", "/schema/swagger"):
        r = await client.get(page)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        links = re.findall(r"""(?:src|href)=["']([^"']+)["']""", r.text)
        assert len(links) >= 4, links  # the script, the preset, the styles, the icon
        for link in links:
            assert link.startswith("/schema/assets/"), link  # nothing from elsewhere
            asset = await client.get(link)
            assert asset.status_code == 200 and len(asset.content) > 500, link
            assert "max-age" in asset.headers["cache-control"]
