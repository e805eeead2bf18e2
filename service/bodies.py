"""Request bodies, decoded strictly against the type the handler declares.

Litestar decodes a JSON body to plain values and then converts them to the handler's type
with msgspec's lax rules, which take `"3"` for 3 and `"true"` for true. Here the body is
decoded from its bytes straight into the declared type with msgspec's strict rules (a
string is never a number, a number never a string); the typed value then passes Litestar's
own conversion unchanged. One leniency stays, the spec's own: JSON Schema counts 3.0 an
integer, so a whole number written with a fraction is taken as that integer. Refusals keep
the problem+json form:

- malformed JSON, a wrong type, an unknown or missing field: 400 `invalid_body`;
- a number or a count of the right type beyond the bound the spec documents for it (a
  game's options, its seats, a bot's think time): 422 with the code of `OUT_OF_RANGE`.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request
from litestar.types import Empty

from .errors import ApiError

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
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        if "got `float`" not in str(exc):
            raise _refusal(str(exc)) from None
    except msgspec.DecodeError as exc:
        raise ApiError(400, "invalid_body", f"The body is not JSON: {exc}") from None
    try:  # the rare body with 3.0 for an integer: decode it again, its whole floats as ints
        return msgspec.convert(_whole(msgspec.json.decode(body)), body_type, strict=True)
    except msgspec.ValidationError as exc:
        raise _refusal(str(exc)) from None


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
            self._json = self._connection_state.json = decode(body or b"null", field.annotation)
        return self._json
