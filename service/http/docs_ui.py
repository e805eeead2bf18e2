"""The API's documentation: the spec at /schema/openapi.json, and the page that shows it
(Swagger UI at /schema/swagger, the default of /schema) with its scripts, styles and icon
served by the service itself, so that it works offline and behind a firewall that blocks
CDNs. The assets are swagger-ui-dist's, vendored in static/swagger-ui (its VERSION file says
which release).

The spec served is the committed one (openapi/openapi.json, which `danger openapi` builds:
service/spec/build.py), read once a process on its first request, never built here:
building it plays the examples' games. Litestar still routes /schema (its docs router, the
page, its not-found answers); before each of its routes that would show the spec Litestar
generates, the committed one is answered instead."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litestar import Request, Router
from litestar.constants import OPENAPI_JSON_HANDLER_NAME
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.plugins import SwaggerRenderPlugin

from service.http import served_files
from service.infra.config import Settings

ROOT = "/schema"
ASSETS = Path(__file__).parent / "static" / "swagger-ui"
PATH = f"{ROOT}/assets"
CACHE_SECONDS = 86_400  # the files change only with a release of the service

SPEC = Path(__file__).parent / "openapi.json"
"""The committed spec: a link to openapi/openapi.json, the file client developers know, which
the package takes as package data (an installed service has it without the repository)."""

# Operations an app key is for: needed to create in keys mode; elsewhere optional (a request
# that carries one is limited under its key, not its address).
APP_KEY_OPERATIONS = {
    ("/v1/games", "post"): True,
    ("/v1/players", "post"): True,
    ("/v1/games/{game_id}/players", "post"): False,
}

AUDIT_OPERATION = ("/v1/audit", "post")
DEFAULT = Settings()


def swagger() -> SwaggerRenderPlugin:
    return SwaggerRenderPlugin(
        js_url=f"{PATH}/swagger-ui-bundle.js",
        css_url=f"{PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{PATH}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{PATH}/favicon-32x32.png'>",
    )


def assets() -> HTTPRouteHandler:
    return served_files.route(PATH, ASSETS, f"public, max-age={CACHE_SECONDS}", {}, "docs-assets")


def dumps(document: dict[str, Any]) -> bytes:
    """A spec as openapi/openapi.json holds it (`danger openapi` prints it so)."""
    return (json.dumps(document, indent=2, sort_keys=True) + "\n").encode()


@dataclass(frozen=True)
class Served:
    text: bytes
    """What /schema/openapi.json answers: the committed file's bytes, with the defaults."""
    document: dict[str, Any]
    """The same as JSON data, which the page shows."""


@functools.cache
def served(auth: str, audit_upload_bytes: int) -> Served:
    """The committed spec, as a server with these settings documents itself: the defaults'
    is the committed file as it is. The only settings the spec depends on are DANGER_AUTH
    (keys: an app key is needed to create) and DANGER_AUDIT_UPLOAD_MB (the bound of an
    audited export); with others than the defaults, those few places are written as
    `danger openapi` would write them with these settings (tests/api/test_security.py)."""
    text = SPEC.read_bytes()
    document = json.loads(text)
    if (auth, audit_upload_bytes) == (DEFAULT.server.auth, DEFAULT.http.audit_upload_bytes):
        return Served(text, document)
    for (path, method), needed in APP_KEY_OPERATIONS.items():
        if needed and auth == "keys":
            document["paths"][path][method]["security"] = [{"appKey": []}]
    _bound_audit(document, DEFAULT.http.audit_upload_bytes, audit_upload_bytes)
    return Served(dumps(document), document)


def _bound_audit(document: dict[str, Any], committed: int, bound: int) -> None:
    """The audit's bound where its operation names it: in MiB (its description, its 413's)
    and in bytes (its body's)."""
    path, method = AUDIT_OPERATION
    operation = document["paths"][path][method]
    said = [
        (f"{committed // 2**20} MiB", f"{bound // 2**20} MiB"),
        (f"{committed} bytes", f"{bound} bytes"),
    ]
    places = [operation, operation["requestBody"], operation["responses"]["413"]]
    for place in places:
        for old, new in said:
            place["description"] = place["description"].replace(old, new)


def router(settings: Settings) -> Router:
    """The router Litestar puts its docs' routes on (`OpenAPIConfig.openapi_router`), each of
    them that would show Litestar's own spec answering the committed one first."""

    async def committed(request: Request) -> bytes | None:
        spec = served(settings.server.auth, settings.http.audit_upload_bytes)
        handler = request.route_handler
        if handler.name == OPENAPI_JSON_HANDLER_NAME:
            return spec.text
        config = request.app.openapi_config
        for plugin in config.render_plugins if config is not None else ():
            roots = {"/"} if plugin is config.default_plugin else set()  # type: ignore[union-attr]  # plugins come from a config
            if any(plugin.has_path(path) or path in roots for path in handler.paths):
                return plugin.render(request, spec.document)
        return None  # Litestar's own answer: a page not found, Swagger's OAuth2 redirect

    return Router(
        ROOT,
        route_handlers=[],
        include_in_schema=False,
        before_request=committed,
        dto=None,
        return_dto=None,
    )
