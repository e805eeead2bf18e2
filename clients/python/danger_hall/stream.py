"""A game's stream, `GET /v1/games/{id}/stream` (Server-Sent Events), as typed messages.

Each event comes as an EventOut; with `view=True` the service also sends the caller's view
(`event: view`) once the backlog is out and after each run of events that leaves the game at
rest, which comes as a View: a client renders the last one and never polls. The messages'
ids are seqs: after a dropped connection (or a 503) the stream is opened again with
`Last-Event-ID`, so no event is missed or seen twice, and a view no newer than the last one
seen is not handed out again. Both the sync and the async client follow it with `Follower`,
which knows where the stream stands; each owns its own loop of reads.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from danger_hall_client.models import EventOut, PlayerNotice
from danger_hall_extras.retry import retry_after

from .calls import PLAYER_TOKEN
from .errors import DangerError, error_of
from .views import View

LAST_EVENT = "seed_revealed"  # every game's log ends with it
RECONNECTED_STATUSES = frozenset({503})
# Seconds of silence after which the connection is taken for dead: the service sends a
# keep-alive comment every 15 s.
READ_TIMEOUT = 60.0

Message = EventOut | View


class Lines:
    """Server-Sent Events (WHATWG HTML, "event stream interpretation"), a line at a time."""

    def __init__(self) -> None:
        self.event = ""
        self.data: list[str] = []

    def feed(self, line: str) -> tuple[str, str] | None:
        """The event name and data of the message this line completes, if it completes one."""
        if not line:
            event, data = self.event, self.data
            self.event, self.data = "", []
            return (event or "message", "\n".join(data)) if data else None
        if line.startswith(":"):
            return None  # a comment: the keep-alive
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self.data.append(value)
        elif name == "event":
            self.event = value
        return None  # `id` is the seq, which the data holds too


class Follower:
    """Where one following of a stream stands: the last seq seen, the last view's, and how
    often in a row it has failed to connect."""

    def __init__(
        self, game_id: str, after: int, view: bool, reconnects: int, backoff: float
    ) -> None:
        self.game_id, self.view = game_id, view
        self.last = after  # the seq to resume after
        self.viewed = -1  # the seq of the last view handed out
        self.reconnects, self.backoff = reconnects, backoff
        self.failures = 0
        self.ended = False  # the game's last event seen
        self.timeout = httpx.Timeout(10.0, read=READ_TIMEOUT)

    def request(self, headers: dict[str, str]) -> dict[str, Any]:
        params: dict[str, Any] = {"after": self.last}
        if self.view:
            params["view"] = "true"
        resume = {"Last-Event-ID": str(self.last)} if self.last else {}
        return {
            "method": "GET",
            "url": f"/v1/games/{self.game_id}/stream",
            "params": params,
            "headers": {**headers, **resume, "Accept": "text/event-stream"},
            "timeout": self.timeout,
        }

    def message(self, event: str, data: str) -> Message | None:
        """The message to hand out, or None: a view already seen."""
        body = json.loads(data)
        self.failures = 0
        if event == "view" or body.get("type") == "view":
            view = View.from_dict(body)
            if view.seq <= self.viewed:
                return None
            self.viewed = view.seq
            return view
        out = EventOut.from_dict(body)
        if out.seq <= self.last:
            return None  # never twice, whatever a server resends
        self.last = out.seq
        self.ended = out.type_ == LAST_EVENT
        return out

    @property
    def over(self) -> bool:
        """The last event is out, and with views the view after it: nothing more will come."""
        return self.ended and (not self.view or self.viewed >= self.last)

    def refused(self, response: httpx.Response) -> DangerError | float:
        """What a non-200 answer means: a pause before trying again, or the error."""
        error = error_of(response)
        if response.status_code not in RECONNECTED_STATUSES:
            return error
        return self.failed(error, retry_after(response.headers.get("Retry-After")))

    def failed(self, error: Exception, asked: float | None = None) -> float:
        """The pause before the next try, or `error` raised when no try is left."""
        self.failures += 1
        if self.failures > self.reconnects:
            raise error
        return asked if asked is not None else min(self.backoff * 2 ** (self.failures - 1), 10.0)


class NoticeFollower(Follower):
    """Where a following of a player's stream (`GET /v1/players/{id}/stream`) stands. It never
    ends by itself; after a reconnect the service reports `your_turn` again for each game
    where it is the player's turn, so a notice may come twice, never be missed."""

    def __init__(self, token: str | None, reconnects: int, backoff: float) -> None:
        if not token or not token.startswith(PLAYER_TOKEN):
            raise ValueError("a player's stream is opened with the player's token (dhp_...)")
        super().__init__("", 0, False, reconnects, backoff)
        self.player = token.removeprefix(PLAYER_TOKEN).partition("_")[0]

    def request(self, headers: dict[str, str]) -> dict[str, Any]:
        return {
            "method": "GET",
            "url": f"/v1/players/{self.player}/stream",
            "headers": {**headers, "Accept": "text/event-stream"},
            "timeout": self.timeout,
        }

    def notice(self, data: str) -> PlayerNotice:
        self.failures = 0
        return PlayerNotice.from_dict(json.loads(data))
