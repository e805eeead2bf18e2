"""Each client's share of a pool the clients share: at most so many places held at once per
client, so that one client's flood is refused to it alone (429) instead of filling the pool
and refusing everyone else (503)."""

from __future__ import annotations

from service.infra.errors import ApiError
from service.infra.tally import Tally


class ClientShares:
    def __init__(self, per_client: int, what: str) -> None:
        self.per_client = per_client
        self.what = what  # what a place is for, as the refusal names it
        self._held = Tally()

    def __len__(self) -> int:
        return len(self._held)

    def take(self, client: str) -> None:
        """One more place for `client`, or the 429 that refuses it."""
        if self._held[client] >= self.per_client:
            raise ApiError(
                429,
                "too_many_in_flight",
                f"At most {self.per_client} {self.what} of one client may run or wait at "
                "once; send the next when one is answered.",
                headers={"Retry-After": "1"},
            )
        self._held.add(client)

    def give(self, client: str) -> None:
        self._held.remove(client)
