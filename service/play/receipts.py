"""Receipts: the service's signature over a game's head for every answer that appends
(docs/transparency.md, "Receipts"), and the list of every key it has signed with."""

from __future__ import annotations

import msgspec

from events.cluster import Store
from events.envelope import canonical
from events.signatures import RECEIPT, message
from service.infra.clock import StoreClock
from service.infra.signing import Signer
from service.wire.schemas import Receipt, SigningKey, SigningKeys

KEYS = "dg:signing-keys"
"""id -> the key as GET /v1/keys lists it: added by each process as it starts, never
removed, so a rotated key stays listed."""

HEADER = "danger-receipt"


class Receipts:
    def __init__(self, signer: Signer, clock: StoreClock) -> None:
        self.signer = signer
        self.clock = clock

    def of(self, game: str, seq: int, head: str, at: str) -> Receipt:
        """The signed receipt of `game` at `seq`, whose event's hash is `head` and whose `at`
        is `at`: the same receipt, byte for byte, however often it is asked for."""
        return signed_receipt(self.signer, game, seq, head, at)

    async def publish(self, redis: Store) -> None:
        await publish_key(redis, self.signer, self.clock)

    async def listed(self, redis: Store) -> SigningKeys:
        listing = await redis.hgetall(KEYS)  # type: ignore[misc]  # as above
        found = [msgspec.json.decode(raw, type=SigningKey) for raw in listing.values()]
        return SigningKeys(current=self.signer.key_id, keys=sorted(found, key=lambda k: k.added))


async def publish_key(redis: Store, signer: Signer, clock: StoreClock) -> None:
    """List the signer's key at GET /v1/keys, unless it is listed already."""
    await clock.refresh()
    key = SigningKey(
        id=signer.key_id, algorithm="ed25519", public_key=signer.public_key, added=clock.stamp()
    )
    await redis.hsetnx(KEYS, key.id, msgspec.json.encode(key).decode())  # type: ignore[misc]  # redis-py: Awaitable[T] | T


def signed_receipt(signer: Signer, game: str, seq: int, head: str, at: str) -> Receipt:
    fields = {"at": at, "game": game, "hash": head, "key": signer.key_id, "seq": seq}
    signature = signer.sign(message(RECEIPT, fields))
    return Receipt(game=game, seq=seq, hash=head, at=at, key=signer.key_id, signature=signature)


def header(receipt: Receipt) -> tuple[str, str]:
    """The Danger-Receipt header: the receipt's canonical JSON."""
    return HEADER, canonical(receipt).decode()
