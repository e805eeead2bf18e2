"""Finishing touches on the generated spec that Litestar cannot express by itself:

- OpenAPI links from create -> join -> start -> command, so clients (and schemathesis'
  stateful tests) can follow a game's life from one answer to the next request;
- optional headers documented as their type, not "type or null" (a header is absent or a
  string; it is never JSON null), with their patterns;
- the rate limit fields on every answer of an operation that can answer 429;
- the pattern of a player's name, which service/play/names.py checks (not msgspec, so that a
  refused name is answered `invalid_name`, not a generic `invalid_body` quoting the pattern);
- request bodies documented from their docstrings (each type's and each field's), and the
  bounds of a list's items, which Litestar leaves out;
- an example of every request body, parameter and answer (service/spec/spec_examples.py), and
  under each problem status the codes the operation answers with it;
- the request id every operation takes and every answer carries (`X-Request-ID`);
- a HEAD beside every GET: the same status and headers, no body;
- the body of `POST /v1/audit`, which the handler reads as bytes.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from collections.abc import Set as AbstractSet
from typing import Any

import msgspec
from litestar.openapi.spec import (
    Example,
    Link,
    OpenAPI,
    OpenAPIHeader,
    OpenAPIResponse,
    Operation,
    Parameter,
    Reference,
    RequestBody,
    Schema,
)
from litestar.openapi.spec.enums import OpenAPIType
from litestar.openapi.spec.media_type import OpenAPIMediaType

from domain.registry import GAMES
from events.envelope import canonical
from service.http import audit_api, docs_ui
from service.http.answers import RECEIPT_HEADER
from service.http.problems import MEDIA
from service.infra.config import Settings
from service.play import names
from service.spec import error_codes, spec_examples
from service.wire.quick_play_schemas import QuickPlayIn, SeatRange
from service.wire.schemas import CREATE_TYPES, JoinGame, RegisterPlayer, TeamChange
from service.wire.webhook_schemas import WebhookChange, WebhookIn

EXPORT_MEDIA = "application/x-ndjson"

GAME_FROM_BODY = "$response.body#/id"
GAME_FROM_PATH = "$request.path.game_id"

LINKS: dict[tuple[str, str, str], dict[str, Link]] = {
    ("/v1/games", "post", "201"): {
        "JoinGame": Link(operation_id="joinGame", parameters={"game_id": GAME_FROM_BODY}),
        "StartGame": Link(
            operation_id="startGame",
            parameters={"game_id": GAME_FROM_BODY},
            description="With `admin_token` as the adminToken bearer.",
        ),
        "GetGame": Link(operation_id="getGame", parameters={"game_id": GAME_FROM_BODY}),
        "ListEvents": Link(operation_id="listEvents", parameters={"game_id": GAME_FROM_BODY}),
    },
    ("/v1/games/{game_id}/players", "post", "201"): {
        "SendCommand": Link(
            operation_id="sendCommand",
            parameters={"game_id": GAME_FROM_PATH},
            description="With `token` as the seatToken bearer.",
        ),
        "GetGameAsSeat": Link(
            operation_id="getGame",
            parameters={"game_id": GAME_FROM_PATH},
            description="With `token` as the seatToken bearer: the seat's own view.",
        ),
        "JoinAgain": Link(operation_id="joinGame", parameters={"game_id": GAME_FROM_PATH}),
    },
    ("/v1/games/{game_id}/start", "post", "200"): {
        "GetStartedGame": Link(operation_id="getGame", parameters={"game_id": GAME_FROM_PATH}),
    },
}


METHODS = ("get", "post", "patch", "delete")

REQUEST_ID = "X-Request-ID"
REQUEST_ID_PATTERN = r"^[A-Za-z0-9._~:/+=-]{1,128}$"

PATTERNS = {
    "If-Match": r'^(W/)?"?[0-9]{1,16}"?$',
    "Idempotency-Key": r"^[\x20-\x7e]{1,128}$",
    REQUEST_ID: REQUEST_ID_PATTERN,
}


CHALLENGE = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.STRING, pattern=r"^Bearer "),
    required=True,
    description='`Bearer realm="danger-hall"`, with `error="invalid_token"` when the token '
    "sent is not valid here (RFC 6750).",
)


def _rate_headers(refused: bool) -> dict[str, OpenAPIHeader]:
    headers = {
        "RateLimit-Policy": OpenAPIHeader(
            schema=Schema(type=OpenAPIType.STRING, pattern=r'^"[a-z]+";q=[0-9]+;w=[0-9]+$'),
            description='The limit on this kind of request for this client: `"create";q=20;w=60` '
            "is a bucket of q requests refilled over w seconds (draft-ietf-httpapi-ratelimit-"
            "headers). The kinds: create, join, register (players), command (commands and "
            "start), read, stream, audit (exports sent to be audited), site (every route "
            "outside /v1).",
        ),
        "RateLimit": OpenAPIHeader(
            schema=Schema(type=OpenAPIType.STRING, pattern=r'^"[a-z]+";r=[0-9]+;t=[0-9]+$'),
            description="What this client has left: r requests now, and within t seconds no more "
            "than r (until the bucket holds one more).",
        ),
    }
    if refused:
        headers["Retry-After"] = OpenAPIHeader(
            schema=Schema(type=OpenAPIType.STRING, pattern=r"^[0-9]+$"),
            required=True,
            description="Seconds to wait before this kind of request is admitted again.",
        )
    return headers


def _without_null(schema: Schema) -> Schema:
    if isinstance(schema.type, list) and OpenAPIType.NULL in schema.type:
        kept = [t for t in schema.type if t != OpenAPIType.NULL]
        schema.type = kept[0] if len(kept) == 1 else kept
        if schema.enum:
            schema.enum = [v for v in schema.enum if v is not None]
        return schema
    branches = [b for b in schema.one_of or [] if getattr(b, "type", None) != "null"]
    if schema.one_of and len(branches) == 1 and isinstance(branches[0], Schema):
        alone = branches[0]
        for name in ("description", "max_length", "min_length", "title"):
            if getattr(schema, name) is not None and getattr(alone, name) is None:
                setattr(alone, name, getattr(schema, name))
        return alone
    return schema


def _request_types() -> list[type[msgspec.Struct]]:
    types: list[type[msgspec.Struct]] = [
        JoinGame,
        RegisterPlayer,
        TeamChange,
        WebhookIn,
        WebhookChange,
        QuickPlayIn,
        SeatRange,
        *CREATE_TYPES.values(),
    ]
    for rules in GAMES.values():
        types += [rules.options_type, *_structs_in(rules.options_type), *rules.commands]
    return types


def _structs_in(struct: type[msgspec.Struct]) -> list[type[msgspec.Struct]]:
    """The struct types of `struct`'s fields (an option's deck composition, its piles)."""
    found = []
    for f in msgspec.inspect.type_info(struct).fields:  # type: ignore[attr-defined]  # a StructType
        for kind in getattr(f.type, "types", (f.type,)):
            if isinstance(kind, msgspec.inspect.StructType):
                found.append(kind.cls)
    return found


def _closed_request_types() -> set[str]:
    """Request bodies refuse unknown fields; the spec says so (additionalProperties: false)."""
    return {t.__name__ for t in _request_types() if t.__struct_config__.forbid_unknown_fields}


def _zero_bounds() -> dict[str, dict[str, dict[str, int]]]:
    """Per request type and field, the bounds of 0 (`ge=0`, `le=0`) that Litestar leaves out
    of the spec (it takes a bound of 0 for no bound)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for struct in _request_types():
        for f in msgspec.inspect.type_info(struct).fields:  # type: ignore[attr-defined]  # a StructType
            kinds = getattr(f.type, "types", (f.type,))  # an optional field is a union
            for kind in kinds:
                bounds = {
                    key: 0
                    for attr, key in (("ge", "minimum"), ("le", "maximum"))
                    if getattr(kind, attr, None) == 0
                }
                if bounds:
                    out.setdefault(struct.__name__, {})[f.encode_name] = bounds
    return out


_ITEM_BOUNDS = (
    ("ge", "minimum"),
    ("le", "maximum"),
    ("min_length", "min_length"),
    ("max_length", "max_length"),
)


def _item_bounds() -> dict[str, dict[str, dict[str, Any]]]:
    """Per request type and list field, the bounds of the list's items."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for struct in _request_types():
        for f in msgspec.inspect.type_info(struct).fields:  # type: ignore[attr-defined]  # a StructType
            for kind in getattr(f.type, "types", (f.type,)):
                item = getattr(kind, "item_type", None)
                if not isinstance(kind, msgspec.inspect.ListType) or item is None:
                    continue
                bounds = {
                    key: getattr(item, attr)
                    for attr, key in _ITEM_BOUNDS
                    if getattr(item, attr, None) is not None
                }
                if bounds:
                    out.setdefault(struct.__name__, {})[f.encode_name] = bounds
    return out


def _docs(struct: type[msgspec.Struct]) -> tuple[str | None, dict[str, str]]:
    """A struct's docstring and its fields' (the string right after a field), by JSON name."""
    own = struct.__dict__.get("__doc__")
    text = " ".join(own.split()) if isinstance(own, str) else None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(struct)))
    except (OSError, TypeError):
        return text, {}  # made at run time (msgspec.defstruct): no source to read
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    names = {f.name: f.encode_name for f in msgspec.structs.fields(struct)}
    fields = {}
    for statement, after in itertools.pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.target.id in names
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            fields[names[statement.target.id]] = " ".join(after.value.value.split())
    return text, fields


def _items_of(prop: Schema) -> Schema | None:
    """The schema of a list property's items (of its list branch, if it may be null)."""
    for branch in [prop, *(prop.one_of or [])]:
        if isinstance(branch, Schema) and isinstance(branch.items, Schema):
            return branch.items
    return None


def _document(component: Schema, struct: type[msgspec.Struct], items: dict[str, Any]) -> None:
    text, fields = _docs(struct)
    if text and component.description is None:
        component.description = text
    for field, prop in (component.properties or {}).items():
        if field in fields and prop.description is None:
            prop.description = fields[field]
        if not isinstance(prop, Schema):
            continue
        item = _items_of(prop)
        for key, bound in items.get(field, {}).items():
            if item is not None:
                setattr(item, key, bound)


def _app_keys(spec: Any, auth: str) -> None:
    for (path, method), needed in docs_ui.APP_KEY_OPERATIONS.items():
        operation = getattr(spec.paths[path], method)
        required = needed and auth == "keys"
        operation.security = [{"appKey": []}] if required else [{"appKey": []}, {}]
    join = spec.paths["/v1/games/{game_id}/players"].post
    join.security = [{"playerToken": []}, *join.security]


def finish(spec: OpenAPI, settings: Settings) -> None:
    """Litestar's spec of an app made with `settings` (service/spec/build.py), finished."""
    _app_keys(spec, settings.server.auth)
    closed = _closed_request_types()
    zero_bounds = _zero_bounds()
    item_bounds = _item_bounds()
    requests = {t.__name__: t for t in _request_types()}
    for name, component in (spec.components.schemas or {}).items():
        if name in closed and isinstance(component, Schema):
            component.additional_properties = False
        if name in requests and isinstance(component, Schema):
            _document(component, requests[name], item_bounds.get(name, {}))
        for field, bounds in zero_bounds.get(name, {}).items():
            prop = (component.properties or {}).get(field)
            if isinstance(prop, Schema):
                prop.minimum = bounds.get("minimum", prop.minimum)
                prop.maximum = bounds.get("maximum", prop.maximum)
    for named in (JoinGame, RegisterPlayer):  # a name the spec admits is one we accept
        schema = (spec.components.schemas or {})[named.__name__]
        schema.properties["name"].pattern = names.pattern()  # type: ignore[union-attr,index]  # our body's
    # A streamed export: its lines are the list's entries (Litestar says nothing of a Stream).
    export = spec.paths["/v1/players/{player_id}/games/export"].get  # type: ignore[index]  # the app's own route
    export.responses["200"].description = "JSON Lines: one `PlayerGameEntry` a line."  # type: ignore[union-attr,index]  # its own answer
    export.responses["200"].content[EXPORT_MEDIA].schema = Schema(  # type: ignore[union-attr,index]  # its own answer
        type=OpenAPIType.STRING,
        description="Each line is a `PlayerGameEntry` (#/components/schemas/PlayerGameEntry) "
        "as listPlayerGames gives it, ended by a line feed.",
    )
    _stream_forms(spec)
    for (path, method, status), links in LINKS.items():
        operation = getattr(spec.paths[path], method)  # type: ignore[index]  # the app's own route
        operation.responses[status].links = links
    _minimal(spec)
    for item in (spec.paths or {}).values():
        for method in METHODS:
            operation = getattr(item, method)
            if operation is None or "429" not in (operation.responses or {}):
                continue
            for status, response in operation.responses.items():
                # Every answer the limiter saw carries them; a 503 may come before it could
                # read the bucket (the store away), so there they are not promised.
                if status != "503":
                    response.headers = {
                        **(response.headers or {}),
                        **_rate_headers(refused=status == "429"),
                    }
        for method in METHODS:
            operation = getattr(item, method)
            if operation is not None and "401" in (operation.responses or {}):
                challenged = operation.responses["401"]
                challenged.headers = {**(challenged.headers or {}), "WWW-Authenticate": CHALLENGE}
            for parameter in (operation and operation.parameters) or []:
                if (
                    isinstance(parameter.schema, Schema)
                    and not parameter.required
                    and parameter.param_in == "header"
                ):
                    parameter.schema = _without_null(parameter.schema)
                    if parameter.name in PATTERNS:
                        parameter.schema.pattern = PATTERNS[parameter.name]
    _etag(spec)
    _receipt_header(spec)
    _request_id(spec)
    _every_key_matches(spec)
    _examples(spec)
    _retry_after(spec)
    _heads(spec)
    audit = spec.paths["/v1/audit"].post  # type: ignore[index]  # the app's own route
    audit.request_body = _audit_body(settings.http.audit_upload_bytes)  # type: ignore[union-attr]  # a POST


RECEIPT = RECEIPT_HEADER.name


def _operations(spec: Any) -> list[tuple[str, str, Operation]]:
    return [
        (path, method, operation)
        for path, item in (spec.paths or {}).items()
        for method in METHODS
        if (operation := getattr(item, method)) is not None
    ]


def _stream_forms(spec: Any) -> None:
    """The live streams' two forms: a 200 as Litestar made it from the route's ResponseSpec
    holds the NDJSON form (which put the messages' schemas among the components); the event
    stream, the default, is set beside it. Both are text on the wire: each says what its
    messages are (a Server-Sent Event as the object a client's parser makes of it)."""
    games = (
        "`EventOut` (its `type` the event's type) or `ViewMessage` (`type` `view`, with "
        "`view=true`)"
    )
    for path, messages, event in (
        ("/v1/games/{game_id}/stream", games, "The event's type, or `view`."),
        ("/v1/players/{player_id}/stream", "`PlayerNotice`", "The notice's `type`."),
    ):
        answer = spec.paths[path].get.responses["200"]
        answer.content = {
            "text/event-stream": OpenAPIMediaType(
                # No type: the examples are the stream's text, and a client's parser (and
                # schemathesis's) makes an object of each event.
                schema=Schema(
                    description=f"Each Server-Sent Event: {messages}; comments keep the line "
                    "alive.",
                    properties={
                        "id": Schema(type=OpenAPIType.STRING, description="The seq, if any."),
                        "event": Schema(type=OpenAPIType.STRING, description=event),
                        "data": Schema(
                            type=OpenAPIType.STRING,
                            content_media_type="application/json",
                            description=f"One {messages}, as JSON.",
                        ),
                    },
                )
            ),
            EXPORT_MEDIA: OpenAPIMediaType(
                schema=Schema(
                    type=OpenAPIType.STRING,
                    description=f"JSON Lines: each line one {messages}; empty lines keep the "
                    "connection alive.",
                )
            ),
        }


def _minimal(spec: Any) -> None:
    """The minimal answer to a command (`Prefer: return=minimal`) names the seq it left."""
    for _, _, operation in _operations(spec):
        minimal = (operation.responses or {}).get("204")
        if minimal is None:
            continue
        minimal.headers = {  # type: ignore[union-attr]  # a response of ours, not a $ref
            **(minimal.headers or {}),  # type: ignore[union-attr]  # the same
            "ETag": OpenAPIHeader(description="The game's seq after the command, quoted."),
            RECEIPT: OpenAPIHeader(description=RECEIPT_HEADER.description),
            "Preference-Applied": OpenAPIHeader(
                schema=Schema(type=OpenAPIType.STRING, enum=["return=minimal"]),
                description="The preference this answer honours.",
            ),
        }


def _etag(spec: Any) -> None:
    """The game's ETag (getGame) is its seq in quotes, as If-Match takes it back."""
    for _, _, operation in _operations(spec):
        for response in (operation.responses or {}).values():
            etag = (response.headers or {}).get("ETag")  # type: ignore[union-attr]  # no $ref here
            if isinstance(etag, OpenAPIHeader) and etag.schema is None:
                etag.schema = Schema(type=OpenAPIType.STRING, pattern=r'^"[0-9]{1,16}"$')
                seq = spec_examples.played().snapshot["as_seat"].seq
                etag.examples = {"seq": ExampleValue(summary=f"At seq {seq}", value=f'"{seq}"')}


def _receipt_header(spec: Any) -> None:
    """The receipt in a header (every answer that appends, a minimal one too): the canonical
    JSON of the body's `receipt`."""
    receipt = spec_examples.played().command.receipt
    example: dict[str, Example | Reference] = {
        "command": ExampleValue(
            summary="The receipt of a command's events",
            value=canonical(msgspec.to_builtins(receipt)).decode(),
        )
    }
    for _, _, operation in _operations(spec):
        for response in (operation.responses or {}).values():
            header = (response.headers or {}).get(RECEIPT)  # type: ignore[union-attr]  # no $ref here
            if isinstance(header, OpenAPIHeader) and header.schema is None:
                header.schema = Schema(
                    type=OpenAPIType.STRING, content_media_type="application/json"
                )
                header.examples = example


def _request_id(spec: Any) -> None:
    """Every operation takes an X-Request-ID and every answer carries one (the service's
    outermost layer, service/http/observe.py, echoes it or makes one). The answers' header is a
    component, named by each rather than repeated."""
    schema = Schema(type=OpenAPIType.STRING, pattern=REQUEST_ID_PATTERN)
    spec.components.headers = {
        **(spec.components.headers or {}),
        REQUEST_ID: OpenAPIHeader(
            schema=schema,
            required=True,
            description=f"The request's id: the {REQUEST_ID} sent, or the one the service "
            "made for it. Quote it when you report a problem.",
            examples={
                "sent": ExampleValue(summary="The client's own", value=spec_examples.REQUEST_ID),
                "made": ExampleValue(
                    summary="Made by the service", value=spec_examples.MADE_REQUEST_ID
                ),
            },
        ),
    }
    answered = Reference(ref=f"#/components/headers/{REQUEST_ID}")
    for _, _, operation in _operations(spec):
        sent = Parameter(
            name=REQUEST_ID,
            param_in="header",
            required=False,
            schema=schema,
            description="The client's id for this request, echoed in the answer's "
            f"{REQUEST_ID} and logged with it. Absent, or not matching the pattern: the "
            "service makes one (`req_` and 20 hex digits) and answers with that.",
        )
        operation.parameters = [*(operation.parameters or []), sent]
        for response in (operation.responses or {}).values():
            response.headers = {**(response.headers or {}), REQUEST_ID: answered}  # type: ignore[union-attr]  # no $ref here


class ExampleValue(Example):
    """An Example whose value is written as it is: Litestar drops every null from the objects
    of a spec, and a null in an answer is part of its shape (`"token": null` for a bot)."""

    def to_schema(self) -> dict[str, Any]:
        written = {"summary": self.summary, "description": self.description}
        return {**{k: v for k, v in written.items() if v is not None}, "value": self.value}


def named(examples: dict[str, spec_examples.Example]) -> dict[str, Example | Reference]:
    return {name: ExampleValue(summary=e.summary, value=e.value) for name, e in examples.items()}


def _examples(spec: Any) -> None:
    """Every request body, parameter and answer gets its examples (service/spec/spec_examples.py);
    every problem status, the codes the operation answers with it and an example of each."""
    bodies = spec_examples.request_bodies()
    parameters = spec_examples.parameters()
    answers = spec_examples.responses()
    used: set[tuple[str, ...]] = set()
    for path, method, operation in _operations(spec):
        name = operation.operation_id or ""
        body = operation.request_body
        if isinstance(body, RequestBody):
            for media, examples in bodies.get(name, {}).items():
                content = body.content[media]
                content.examples = named(examples)
                used.add(("request_bodies", name, media))
                if isinstance(content.schema, Schema):
                    content.schema.examples = None  # the named ones above replace them
        for parameter in operation.parameters or []:
            if isinstance(parameter, Parameter):
                for key in (name, "*"):
                    found = parameters.get(key, {}).get(parameter.name)
                    if found:
                        parameter.examples = named(found)
                        used.add(("parameters", key, parameter.name))
                        break
        for status, response in (operation.responses or {}).items():
            if not isinstance(response, OpenAPIResponse):
                continue
            if status in answers.get(name, {}):
                for media, examples in answers[name][status].items():
                    response.content[media].examples = named(examples)  # type: ignore[index]  # its media
                    used.add(("responses", name, status, media))
            elif MEDIA in (response.content or {}):
                code = int(status)
                response.description = error_codes.problem_description(
                    name, code, response.description
                )
                problems = spec_examples.problem_examples(name, code, method, path)
                response.content[MEDIA].examples = named(problems)  # type: ignore[index]  # the elif
    given = {
        *(("request_bodies", n, m) for n, media in bodies.items() for m in media),
        *(("parameters", n, p) for n, named_ in parameters.items() for p in named_),
        *(
            ("responses", n, s, m)
            for n, statuses in answers.items()
            for s, media in statuses.items()
            for m in media
        ),
    }
    _none_unused("spec_examples", given - used)


def _none_unused(table: str, unused: AbstractSet[tuple[str, ...]]) -> None:
    """A table keyed by operationId (and status, parameter, media type) whose key matches
    nothing in the spec: an operation renamed, or a status or parameter gone, whose examples,
    codes or links would be lost without a word."""
    if unused:
        keys = ", ".join("/".join(key) for key in sorted(unused))
        raise ValueError(f"{table} names what the spec does not have: {keys}")


def _every_key_matches(spec: Any) -> None:
    """Each table of service/spec keyed by operationId names operations the spec has."""
    ids = {operation.operation_id for _, _, operation in _operations(spec)}
    links = {(link.operation_id,) for links in LINKS.values() for link in links.values()}
    _none_unused("openapi_spec.LINKS", links - {(i,) for i in ids})  # type: ignore[arg-type]  # all named
    errors = {(name,) for name in [*error_codes.ERRORS, *error_codes.REFUSED]}
    _none_unused("error_codes.ERRORS", errors - {(i,) for i in ids})
    listed = {
        (name, code)
        for name, statuses in error_codes.ERRORS.items()
        for codes in statuses.values()
        for code in codes
    }
    _none_unused("error_codes.OVERRIDES", set(error_codes.OVERRIDES) - listed)


RETRY_AFTER = "Retry-After"


def _retry_after(spec: Any) -> None:
    """A problem answer carries Retry-After where its code says when to come again: the
    header is on each status that has such a code, required where every code has it."""
    for _, _, operation in _operations(spec):
        codes = error_codes.ERRORS.get(operation.operation_id or "", {})
        for status, response in (operation.responses or {}).items():
            listed = codes.get(int(status), ()) if status.isdigit() else ()
            timed = [code for code in listed if code in error_codes.RETRY_AFTER]
            if not timed or not isinstance(response, OpenAPIResponse):
                continue
            headers = dict(response.headers or {})
            if RETRY_AFTER in headers and len(timed) == len(listed):
                continue  # a 429's own (_rate_headers)
            headers[RETRY_AFTER] = OpenAPIHeader(
                schema=Schema(type=OpenAPIType.STRING, pattern=r"^[0-9]+$"),
                required=len(timed) == len(listed),
                description="Seconds to wait before asking again"
                + ("." if len(timed) == len(listed) else f": with {', '.join(timed)}."),
            )
            response.headers = headers


def head_operation_id(get_id: str) -> str:
    """headGame for getGame, headListGames for listGames."""
    verb = get_id.removeprefix("get") if get_id.startswith("get") else get_id
    return "head" + verb[:1].upper() + verb[1:]


def _heads(spec: Any) -> None:
    """A HEAD beside every GET: its parameters, and its answers' statuses and headers
    without a body."""
    for item in (spec.paths or {}).values():
        get = item.get
        if get is None:
            continue
        item.head = Operation(
            tags=get.tags,
            summary=f"Headers only: {get.summary[:1].lower()}{get.summary[1:]}"
            if get.summary
            else None,
            description="As the GET of this path, without a body: the same status and headers.",
            operation_id=head_operation_id(get.operation_id or ""),
            parameters=get.parameters,
            responses={
                status: OpenAPIResponse(description=response.description, headers=response.headers)
                for status, response in (get.responses or {}).items()
                if isinstance(response, OpenAPIResponse)
            },
            security=get.security,
        )


def _audit_body(max_bytes: int) -> RequestBody:
    """The body of `POST /v1/audit` as the spec shows it (the handler reads the raw bytes)."""
    content = {
        media: OpenAPIMediaType(
            schema=Schema(type=OpenAPIType.STRING, min_length=1, pattern=r"\S"),
            examples=named(spec_examples.audit_upload()),
        )
        for media in audit_api.MEDIA_TYPES
    }
    content[audit_api.WITH_RECEIPTS] = OpenAPIMediaType(
        schema=Schema(
            type=OpenAPIType.OBJECT,
            required=["export"],
            properties={
                "export": Schema(
                    type=OpenAPIType.STRING,
                    min_length=1,
                    description="The export, JSON Lines, as GET /v1/games/{id}/export answered.",
                ),
                "receipts": Schema(
                    type=OpenAPIType.ARRAY,
                    items=Reference(ref="#/components/schemas/Receipt"),
                    max_items=100_000,
                    description="Receipts of the game its client kept (each answer's `receipt`).",
                ),
            },
            additional_properties=False,
        ),
        examples=named(spec_examples.audit_upload_with_receipts()),
    )
    return RequestBody(
        required=True,
        description="JSON Lines, one event envelope a line; or, as JSON, the export and the "
        f"receipts its client kept. At most {max_bytes} bytes.",
        content=content,
    )
