"""Request bodies, decoded strictly against the type the handler declares.

Litestar decodes a JSON body to plain values and then converts them to the handler's type
with msgspec's lax rules, which take `"3"` for 3 and `"true"` for true. Here the body is
decoded from its bytes straight into the declared type with msgspec's strict rules (a
string is never a number, a number never a string); the typed value then passes Litestar's
own conversion unchanged. One leniency stays, the spec's own: JSON Schema counts 3.0 an
integer, so a whole number written with a fraction is taken as that integer. Refusals keep
the problem+json form:

- a body sent as anything but JSON (`application/json`, or a `+json` type): 415
  `unsupported_media_type`, so that no web page can make a visitor's browser send one
  without a CORS preflight (a form, `text/plain` and multipart need none);
- malformed JSON, a wrong type, an unknown or missing field, a key given twice in one
  object: 400 `invalid_body`;
- a number or a count of the right type beyond the bound the spec documents for it (a
  game's options, its seats, a bot's think time): 422 with the code of `OUT_OF_RANGE`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
from litestar import Request
from litestar.types import Empty

from service.infra.errors import ApiError

OUT_OF_RANGE = {
    "options": "option_out_of_range",
    "seats": "seats_out_of_range",
    "think_ms": "think_ms_out_of_range",
}
"""Per top-level body field: the code of a value beyond its documented bounds."""

# msgspec's words for a bound: "Expected `int` <= 6", "Expected `array` of length >= 108".
_BOUND = re.compile(r"^Expected `[a-z]+`(?: of length)? [<>]=? ")
_AT = re.compile(r" - at `\$\.?([A-Za-z_]*)")

_decoders: dict[Any, msgspec.json.Decoder[Any]] = {}


def decode(body: bytes, body_type: Any) -> Any:
    """`body` as `body_type`, or an ApiError naming what is wrong with it."""
    decoder = _decoders.get(body_type)
    if decoder is None:
        decoder = _decoders[body_type] = msgspec.json.Decoder(body_type, strict=True)
    try:
        value = decoder.decode(body)
    except msgspec.ValidationError as exc:
        if "got `float`" not in str(exc):
            raise _refusal(str(exc)) from None
    except msgspec.DecodeError as exc:
        raise ApiError(400, "invalid_body", f"The body is not JSON: {exc}") from None
    else:
        _no_key_twice(body)
        return value
    try:  # the rare body with 3.0 for an integer: decode it again, its whole floats as ints
        value = msgspec.convert(_whole(msgspec.json.decode(body)), body_type, strict=True)
    except msgspec.ValidationError as exc:
        raise _refusal(str(exc)) from None
    except msgspec.DecodeError as exc:  # a number, then not JSON: the typed decoder stopped
        raise ApiError(400, "invalid_body", f"The body is not JSON: {exc}") from None
    _no_key_twice(body)
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1 and len({key for key, _ in pairs}) != len(pairs):
        key = next(k for n, (k, _) in enumerate(pairs) if k in (p[0] for p in pairs[:n]))
        raise ApiError(400, "invalid_body", f"The key {key[:64]!r} is given twice in one object.")


# msgspec keeps the last of a key given twice, and other parsers the first: a body that two
# readers of it (a proxy, a log, the service) could read differently is refused. The body is
# known to be valid JSON here, so this second parse only looks at the keys (a few µs).
_keys = json.JSONDecoder(object_pairs_hook=_pairs)


def _no_key_twice(body: bytes) -> None:
    _keys.decode(body.decode())


def is_json(content_type: str) -> bool:
    """`application/json` or a `+json` type (RFC 6839), parameters aside."""
    media = content_type.partition(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def not_json(content_type: str) -> ApiError:
    return ApiError(
        415,
        "unsupported_media_type",
        f"Send the body as application/json (not {content_type[:64] or 'none'}).",
    )


def _whole(value: Any) -> Any:
    """`value` with every float that is a whole number made an int (a float field takes an
    int, so nothing else changes)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


def _refusal(message: str) -> ApiError:
    at = _AT.search(message)
    code = OUT_OF_RANGE.get(at.group(1)) if at else None
    if code is not None and _BOUND.match(message):
        return ApiError(422, code, message)
    return ApiError(400, "invalid_body", message)


class StrictRequest(Request[Any, Any, Any]):
    """A request whose JSON body is decoded strictly into the handler's `data` type."""

    async def json(self) -> Any:
        field = self.route_handler.parsed_data_field
        if field is None:
            return await super().json()
        if self._json is Empty:
            body = await self.body()
            content_type = self.headers.get("content-type", "")
            if body and not is_json(content_type):
                raise not_json(content_type)
            self._json = self._connection_state.json = decode(body or b"null", field.annotation)
        return self._json
