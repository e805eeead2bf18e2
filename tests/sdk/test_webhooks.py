"""The SDK's check of a webhook delivery (danger_hall.webhooks), held to the Standard Webhooks
specification's own example and to what a receiver must refuse: another secret, a changed
body, an old or future timestamp, a missing header. Pure: no server."""

from __future__ import annotations

import pytest
from danger_hall.webhooks import WebhookVerificationError, sign, verify

# The specification's reference libraries' example (standard-webhooks, libraries/*/tests).
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = b'{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(signature: str = SIGNATURE, timestamp: int = TIMESTAMP) -> dict[str, str]:
    return {
        "webhook-id": MSG_ID,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature,
    }


def test_the_specifications_example_signs_and_verifies():
    assert sign(SECRET, MSG_ID, TIMESTAMP, BODY) == SIGNATURE
    assert verify(SECRET, headers(), BODY, now=TIMESTAMP) == {"test": 2432232314}
    # Header names are case-insensitive; a str body is its UTF-8 bytes.
    upper = {k.upper(): v for k, v in headers().items()}
    assert verify(SECRET, upper, BODY.decode(), now=TIMESTAMP + 299) == {"test": 2432232314}


def test_during_a_rotation_either_secret_verifies_a_delivery_signed_with_both():
    new = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODk="
    both = f"{sign(new, MSG_ID, TIMESTAMP, BODY)} {SIGNATURE}"
    assert verify(SECRET, headers(both), BODY, now=TIMESTAMP)
    assert verify([new], headers(both), BODY, now=TIMESTAMP)
    with pytest.raises(WebhookVerificationError, match="no signature"):
        verify(new, headers(), BODY, now=TIMESTAMP)  # signed with the old one alone


@pytest.mark.parametrize(
    ("given", "body", "now", "why"),
    [
        (headers(), b'{"test": 2432232315}', TIMESTAMP, "no signature"),
        (
            headers("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA="),
            BODY,
            TIMESTAMP,
            "no signature",
        ),
        (headers("v2," + SIGNATURE[3:]), BODY, TIMESTAMP, "no signature"),
        (headers(), BODY, TIMESTAMP + 301, "from now"),
        (headers(), BODY, TIMESTAMP - 301, "from now"),
        ({**headers(), "webhook-timestamp": "soon"}, BODY, TIMESTAMP, "not a number"),
        (
            {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP)},
            BODY,
            TIMESTAMP,
            "no webhook-signature",
        ),
    ],
)
def test_what_a_receiver_refuses(given, body, now, why):
    with pytest.raises(WebhookVerificationError, match=why):
        verify(SECRET, given, body, now=now)
