"""The API's documentation page (Swagger UI at /schema/swagger, the default of /schema) with
its scripts, styles and icon served by the service itself, so that it works offline and
behind a firewall that blocks CDNs. The assets are swagger-ui-dist's, vendored in
static/swagger-ui (its VERSION file says which release)."""

from __future__ import annotations

from pathlib import Path

from litestar.handlers import HTTPRouteHandler
from litestar.openapi.plugins import SwaggerRenderPlugin

from service.http import served_files

ASSETS = Path(__file__).parent / "static" / "swagger-ui"
PATH = "/schema/assets"
CACHE_SECONDS = 86_400  # the files change only with a release of the service


def swagger() -> SwaggerRenderPlugin:
    return SwaggerRenderPlugin(
        js_url=f"{PATH}/swagger-ui-bundle.js",
        css_url=f"{PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{PATH}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{PATH}/favicon-32x32.png'>",
    )


def assets() -> HTTPRouteHandler:
    return served_files.route(
        PATH, ASSETS, f"public, max-age={CACHE_SECONDS}", {}, "docs-assets"
    )
