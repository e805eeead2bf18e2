"""The places for open streams in one API process: at most so many per client and in all.

Counted where the stream is asked for, whoever then writes it (the process's hub, or its
stream writer, service/live/stream_writer.py), and freed when it ends."""

from __future__ import annotations

from service.infra import metrics
from service.infra.errors import ApiError
from service.infra.tally import Tally


class StreamSlots:
    def __init__(self, per_client: int, per_process: int) -> None:
        self.per_client, self.per_process = per_client, per_process
        self.by_client = Tally()
        self.open = 0

    def take(self, client: str) -> None:
        """A place for one more stream of `client`, or the refusal to give."""
        if self.by_client[client] >= self.per_client:
            raise ApiError(
                429,
                "too_many_streams",
                f"At most {self.per_client} streams may be open from one client; close one first.",
            )
        if self.open >= self.per_process:
            raise ApiError(
                503,
                "stream_capacity",
                "This server holds as many streams as it may; retry shortly.",
            )
        self.by_client.add(client)
        self.open += 1
        metrics.STREAMS.inc()

    def give(self, client: str) -> None:
        self.by_client.remove(client)
        self.open -= 1
        metrics.STREAMS.dec()


class Unbounded(StreamSlots):
    """For a process that writes streams another process has counted."""

    def __init__(self) -> None:
        super().__init__(per_client=2**62, per_process=2**62)

    def take(self, client: str) -> None:
        self.open += 1

    def give(self, client: str) -> None:
        self.open -= 1
