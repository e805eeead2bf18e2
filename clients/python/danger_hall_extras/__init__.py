"""What the generated `danger_hall_client` cannot say from the spec: following a game's
Server-Sent Events across reconnects, and retrying a write under one Idempotency-Key.

Hand-written, beside the generated package: `make client` regenerates `danger_hall_client`
and leaves this package alone (clients/README.md).
"""

from .retry import Retrying, new_key
from .stream import StreamError, afollow, follow

__all__ = ["Retrying", "StreamError", "afollow", "follow", "new_key"]
