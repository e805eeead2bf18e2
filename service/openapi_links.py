"""OpenAPI links from create -> join -> start -> command, so clients (and schemathesis'
stateful tests) can follow a game's life from one answer to the next request."""

from __future__ import annotations

from litestar import Litestar
from litestar.openapi.spec import Link

GAME_FROM_BODY = "$response.body#/id"
GAME_FROM_PATH = "$request.path.game_id"

LINKS: dict[tuple[str, str, str], dict[str, Link]] = {
    ("/v1/games", "post", "201"): {
        "JoinGame": Link(operation_id="joinGame", parameters={"game_id": GAME_FROM_BODY}),
        "StartGame": Link(
            operation_id="startGame",
            parameters={
                "game_id": GAME_FROM_BODY,
                "Authorization": "Bearer {$response.body#/admin_token}",
            },
        ),
        "GetGame": Link(operation_id="getGame", parameters={"game_id": GAME_FROM_BODY}),
        "ListEvents": Link(operation_id="listEvents", parameters={"game_id": GAME_FROM_BODY}),
    },
    ("/v1/games/{game_id}/players", "post", "201"): {
        "SendCommand": Link(
            operation_id="sendCommand",
            parameters={
                "game_id": GAME_FROM_PATH,
                "Authorization": "Bearer {$response.body#/token}",
            },
        ),
        "GetGameAsSeat": Link(
            operation_id="getGame",
            parameters={
                "game_id": GAME_FROM_PATH,
                "Authorization": "Bearer {$response.body#/token}",
            },
        ),
        "JoinAgain": Link(operation_id="joinGame", parameters={"game_id": GAME_FROM_PATH}),
    },
    ("/v1/games/{game_id}/start", "post", "200"): {
        "GetStartedGame": Link(operation_id="getGame", parameters={"game_id": GAME_FROM_PATH}),
    },
}


def add_links(app: Litestar) -> None:
    schema = app.openapi_schema
    for (path, method, status), links in LINKS.items():
        operation = getattr(schema.paths[path], method)  # type: ignore[index]
        operation.responses[status].links = links
