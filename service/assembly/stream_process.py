"""The stream writer's process (service/live/stream_writer.py): the live streams of one API process,
written on the sockets it hands over.

    python -m service.assembly.stream_process FD

FD is its end of the control socket (SOCK_SEQPACKET). The first datagram holds the settings;
then each `open` brings a connection's descriptor, whose answer head the API process has sent:
this process writes the stream's events as the chunks of the body (what uvicorn would have
written), from its own StreamHub, and says `done` when the stream has ended (ok: every chunk
written, the body's last chunk is the API's to send) or its write failed. It never reads from
a connection (the API process does), and ends when the control socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import socket
import sys

from events.store import EventStore
from service.assembly.runtime import open_stores
from service.infra import event_loop, logs
from service.infra.config import Settings
from service.live.stream_slots import Unbounded
from service.live.stream_writer import DECODE, ENCODE, Message, Outbox
from service.live.streams import StreamHub
from service.play.games import GameService

log = logging.getLogger("danger.streams")


class Writer:
    def __init__(self, control: socket.socket, settings: Settings, redis_url: str) -> None:
        self.control, self.settings, self.redis_url = control, settings, redis_url
        self.streams: dict[int, asyncio.Task[None]] = {}
        self.closed: asyncio.Future[None] | None = None

    async def serve(self, keep_alive: float) -> None:
        loop = asyncio.get_running_loop()
        self.closed = loop.create_future()
        settings = self.settings
        redis, _, in_force = await open_stores(settings, self.redis_url)
        store = EventStore(redis, in_force.copies, settings.play.idempotency_ms)
        # Reads only: a service with no reactions, since it appends nothing.
        service = GameService(
            store,
            settings.play.sandbox,
            settings.lifecycle,
            cache_bytes=settings.play.cache_mb * 2**20,
        )
        self.hub = StreamHub(
            service,
            Unbounded(),
            queue_bound=settings.streams.stream_queue,
            writes_per_second=settings.streams.stream_writes,
            keep_alive=keep_alive,
        )
        await self.hub.start()
        loop.add_signal_handler(signal.SIGTERM, self._close)
        self.control.setblocking(False)
        self.outbox = Outbox(self.control)
        loop.add_reader(self.control, self._readable)
        self.outbox.post(ENCODE(Message("ready")))
        try:
            await self.closed
        finally:
            loop.remove_reader(self.control)
            self.outbox.close()
            for task in list(self.streams.values()):
                task.cancel()
            await asyncio.gather(*self.streams.values(), return_exceptions=True)
            await self.hub.stop()
            await redis.aclose()

    def _close(self) -> None:
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)

    def _readable(self) -> None:
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.control, 4096, 1)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if not data:
                for fd in fds:
                    os.close(fd)
                self._close()  # the API process is gone, or let go of this one
                return
            message = DECODE(data)
            if message.op == "open" and fds:
                sock = socket.socket(fileno=fds[0])
                sock.setblocking(False)
                self.streams[message.id] = asyncio.create_task(self._write(message, sock))
            elif message.op == "drop" and (task := self.streams.get(message.id)):
                task.cancel()
            else:
                for fd in fds:
                    os.close(fd)

    async def _write(self, opening: Message, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        subscriber = self.hub.subscribe(
            opening.game, opening.viewer, "", opening.checked, opening.lines, opening.views
        )
        messages = self.hub.events(subscriber, opening.after)
        ok = False
        try:
            async for message in messages:
                frame = message.encode()
                await loop.sock_sendall(sock, b"%x\r\n%b\r\n" % (len(frame), frame))
            ok = True
        except OSError:
            pass  # the client went away mid-write
        except Exception:
            log.exception("writing a stream of game %s failed", opening.game)
        finally:
            await messages.aclose()
            sock.close()
            self.streams.pop(opening.id, None)
        # Not when dropped (cancelled above): the API process has let go of the stream.
        self.outbox.post(ENCODE(Message("done", opening.id, ok=ok)))


def main(argv: list[str]) -> int:
    control = socket.socket(fileno=int(argv[0]))
    settings, redis_url, keep_alive = pickle.loads(control.recv(1 << 20))
    with contextlib.suppress(OSError):
        os.nice(settings.streams.stream_nice)
    logs.configure(settings.observe.log_format)
    event_loop.run(Writer(control, settings, redis_url).serve(keep_alive), settings)
    logs.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
