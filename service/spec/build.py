"""The spec as `danger openapi` prints it and openapi/openapi.json holds it: the app's routes
as Litestar documents them, in an app made as the service makes it but never started, then
finished (openapi_spec.py: links, examples, codes). It plays the examples' games, so it takes
a second or so: the running service never builds it, it serves the committed file
(service/http/docs_ui.py), and tests/api/test_spec.py holds the two equal."""

from __future__ import annotations

import json
from typing import Any

from service.assembly.app import create_app
from service.http import docs_ui
from service.infra.config import Settings
from service.spec import openapi_spec, webhook_spec

NO_STORE = "redis://127.0.0.1:0/0"  # the app is never started, so it never connects

DEFAULTS = Settings().replace(background=False)
"""The settings the committed spec is built with: a server's defaults."""


def build(settings: Settings = DEFAULTS) -> dict[str, Any]:
    """The spec a server with `settings` documents, as JSON data in the order it is built
    (a status's codes in the order they are listed, ...)."""
    return json.loads(json.dumps(_schema(settings)))


def text(settings: Settings = DEFAULTS) -> str:
    """The same as openapi/openapi.json holds it: its keys sorted."""
    return docs_ui.dumps(_schema(settings)).decode()


def _schema(settings: Settings) -> dict[str, Any]:
    app = create_app(settings, NO_STORE)
    spec = app.openapi_schema  # Litestar's, from the app's routes
    openapi_spec.finish(spec, settings)
    document = spec.to_schema()
    document["webhooks"] = webhook_spec.webhooks()
    return document
