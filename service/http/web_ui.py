"""The web client: plain HTML, CSS and JavaScript modules in service/http/web, served as they are
(no build step), using only the public REST API and its streams. Its pages' addresses and
DOM hooks are stable (docs/web.md): every page is the same document, which draws the page
its address names.

Every answer here carries a Content-Security-Policy that lets the page load and connect to
nothing but this origin, with no inline script or style."""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get
from litestar.handlers import HTTPRouteHandler

from service.http import served_files

WEB = Path(__file__).parent / "web"
ASSETS_PATH = "/web"

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # A seat's token travels in the address's fragment, never sent; nor is the page's path.
    "Referrer-Policy": "no-referrer",
}

PAGES = [
    "/",
    "/games/{game_id:str}",
    "/games/{game_id:str}/replay",
    "/games/{game_id:str}/audit",
    "/audit",
    "/players/{player_id:str}",
    "/leaderboards",
    "/leaderboards/{game:str}",
]


DOCUMENT = (WEB / "index.html").read_bytes()


@get(PAGES, include_in_schema=False, name="web-page", sync_to_thread=False)
def page() -> Response[bytes]:
    """The one document of every page; app.js reads the address and draws it."""
    return Response(
        DOCUMENT,
        media_type="text/html",
        headers={**HEADERS, "Cache-Control": "no-cache"},
    )


def assets() -> HTTPRouteHandler:
    # Revalidated every time: the files change with the service, and are small.
    return served_files.route(ASSETS_PATH, WEB, "no-cache", HEADERS, "web-assets")
