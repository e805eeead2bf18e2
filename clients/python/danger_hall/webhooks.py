"""Checking that a webhook delivery is Danger Hall's, as the Standard Webhooks specification
(standardwebhooks.com) defines it, with the standard library alone.

    from danger_hall.webhooks import verify, WebhookVerificationError

    try:
        event = verify(secret, request.headers, request.body)  # the raw bytes, unparsed
    except WebhookVerificationError:
        return 400

A delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`:
one or more `v1,<base64>` separated by spaces, each the HMAC-SHA256 of
`<id>.<timestamp>.<body>` under a secret (`whsec_` and the key in base64). While a secret is
being rotated a delivery is signed with both; pass every secret you accept. A timestamp more
than `tolerance` seconds away from now is refused, so a captured delivery cannot be replayed
later; the `webhook-id` lets a receiver drop a delivery it has taken already.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """The delivery is not one signed with a secret given, or is too old or too new."""


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"not a webhook secret (whsec_ and base64): {exc}") from None


def sign(secret: str, msg_id: str, timestamp: int, body: bytes | str) -> str:
    """`v1,<base64>`: the signature of one delivery under one secret."""
    data = body.encode() if isinstance(body, str) else body
    signed = f"{msg_id}.{timestamp}.".encode() + data
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"the delivery has no {name} header")


def verify(
    secrets: str | Iterable[str],
    headers: Mapping[str, str],
    body: bytes | str,
    tolerance: float = TOLERANCE_SECONDS,
    now: float | None = None,
) -> Any:
    """The delivery's JSON body, once a signature in `webhook-signature` matches one of
    `secrets` and its timestamp is within `tolerance` seconds of `now` (this clock's);
    `WebhookVerificationError` otherwise. `body` is the request's body exactly as it came."""
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    try:
        timestamp = int(stamp)
    except ValueError:
        raise WebhookVerificationError(f"webhook-timestamp is not a number: {stamp!r}") from None
    moment = time.time() if now is None else now
    if abs(moment - timestamp) > tolerance:
        raise WebhookVerificationError(
            f"webhook-timestamp is {moment - timestamp:+.0f} s from now, past {tolerance:g} s"
        )
    offered = _header(headers, "webhook-signature").split()
    expected = [
        sign(secret, msg_id, timestamp, body)
        for secret in ([secrets] if isinstance(secrets, str) else secrets)
    ]
    if not any(hmac.compare_digest(given, wanted) for given in offered for wanted in expected):
        raise WebhookVerificationError("no signature matches a secret given")
    return json.loads(body)
