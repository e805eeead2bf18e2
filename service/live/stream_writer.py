"""An API process's stream writer: a process of its own, at a lower CPU priority, that writes
the bodies of this process's live streams (service/assembly/stream_process.py).

With thousands of streams open, writing their events costs more CPU than the commands being
answered beside them (a socket write per stream per batch); in the API process, that work
took the core from the commands and from the Valkey they wait on, and a few commands in a
hundred came back 10 to 30 ms later (docs/performance.md, "Thousands of live streams"). In
a process of its own at `DANGER_STREAM_NICE`, the kernel gives the core to the commands first.

The API process still answers the request: it checks the token, counts the stream against its
caps (service/live/stream_slots.py), sends the answer's head, and then hands the connection's
socket (a duplicate of its file descriptor, over a unix socket) with the stream's game, viewer,
position and the seq its token was checked at to the writer, which follows the feeds, reads,
redacts and writes each event as a chunk of the answer's body. The API process keeps the
connection: it reads from it (a client that leaves is seen there, and the writer told to drop
the stream), and when the writer says the stream has ended it sends the body's last chunk, so
the connection serves the client's next request as any other would. If the writer's write
fails, or the writer dies, the connection is closed; the client reconnects with Last-Event-ID
and loses nothing.

The writer starts with the API process. Streams that cannot be handed over (a server without
service/http/http_protocols.py's protocols, HTTP/1.0), and those opened while the writer is not
ready (at the start, or while it is started again after a failure), the API process writes
itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import socket
import sys
from collections import deque
from collections.abc import AsyncGenerator
from typing import Any

import msgspec

from domain.kernel import Viewer
from service.infra.config import Settings
from service.live.stream_slots import StreamSlots

log = logging.getLogger("danger.streams")

RESTART_SECONDS = 1.0  # after the writer process ended, before it is started again
STOP_SECONDS = 5.0  # for the writer to end when asked, before it is killed


class Message(msgspec.Struct, omit_defaults=True):
    """One datagram on the control socket. API to writer: `open` (with the connection's
    descriptor), `drop`; writer to API: `ready`, `done`."""

    op: str
    id: int = 0
    game: str = ""
    viewer: Viewer = "spectator"
    after: int = 0
    checked: int = 0  # the game's seq when the viewer's token was checked
    lines: bool = False  # NDJSON, else Server-Sent Events
    views: bool = False  # with the reader's view messages
    ok: bool = False


ENCODE = msgspec.json.Encoder().encode
DECODE = msgspec.json.Decoder(Message).decode


class StreamWriter:
    def __init__(
        self, settings: Settings, redis_url: str, slots: StreamSlots, keep_alive: float
    ) -> None:
        self.settings, self.redis_url, self.keep_alive = settings, redis_url, keep_alive
        self.slots = slots
        self.control: socket.socket | None = None  # set while the writer is ready
        self.pending: dict[int, asyncio.Future[bool]] = {}
        self.process: asyncio.subprocess.Process | None = None
        self._ids = itertools.count(1)
        self._outbox: Outbox | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def ready(self) -> bool:
        return self.control is not None

    def hand_over(
        self,
        transport: asyncio.Transport,
        game_id: str,
        viewer: Viewer,
        client: str,
        after: int,
        checked: int,
        lines: bool = False,
        views: bool = False,
    ) -> Handed | None:
        """The stream, to be written by the writer; None while the writer is not ready.
        Refused beyond the caps."""
        if self.control is None:
            return None
        self.slots.take(client)
        opening = Message(
            "open", next(self._ids), game_id, viewer, after, checked, lines=lines, views=views
        )
        return Handed(self, transport, client, opening)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # The writer process ---------------------------------------------------------------

    async def _run(self) -> None:
        """Start the writer, and again whenever it ends, until stopped."""
        while True:
            try:
                await self._serve()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the stream writer failed")
            await asyncio.sleep(RESTART_SECONDS)

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with theirs:
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "service.assembly.stream_process",
                    str(theirs.fileno()),
                    pass_fds=(theirs.fileno(),),
                    # Out of the terminal's process group, so a Ctrl-C reaches only the API
                    # process, which then lets the writer go (its end of the socket closes).
                    start_new_session=True,
                )
            ours.setblocking(False)
            # Its settings (the store's password among them) over the socket, not in argv.
            await loop.sock_sendall(
                ours, pickle.dumps((self.settings, self.redis_url, self.keep_alive))
            )
            while True:
                data = await loop.sock_recv(ours, 4096)
                if not data:
                    log.warning("the stream writer ended; its streams are closed")
                    return
                message = DECODE(data)
                if message.op == "ready":
                    self._outbox, self.control = Outbox(ours), ours
                    log.info("the stream writer is ready (pid %s)", self.process.pid)
                elif message.op == "done":
                    done = self.pending.get(message.id)
                    if done is not None and not done.done():
                        done.set_result(message.ok)
        finally:
            self.control = None
            for done in self.pending.values():
                if not done.done():
                    done.set_result(False)
            if self._outbox is not None:
                self._outbox.close()
                self._outbox = None
            ours.close()
            await self._end_process()

    async def _end_process(self) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except (TimeoutError, asyncio.CancelledError):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await asyncio.shield(process.wait())

    def post(self, message: Message, fd: int | None = None) -> bool:
        """Send `message` (with `fd`) without waiting; False if the writer is not ready."""
        if self.control is None or self._outbox is None:
            return False
        self._outbox.post(ENCODE(message), fd)
        return True


class Outbox:
    """Datagrams for one end of the control socket, sent in order without waiting: at once,
    or once the socket takes them (a descriptor kept open until then). Bursts are common:
    thousands of streams opened, or ended, at once."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.waiting: deque[tuple[bytes, int | None]] = deque()

    def post(self, payload: bytes, fd: int | None = None) -> None:
        if not self.waiting and self._send(payload, fd):
            return
        self.waiting.append((payload, None if fd is None else os.dup(fd)))
        if len(self.waiting) == 1:
            asyncio.get_running_loop().add_writer(self.control, self._drain)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_writer(self.control)
        while self.waiting:
            _, fd = self.waiting.popleft()
            if fd is not None:
                os.close(fd)

    def _send(self, payload: bytes, fd: int | None) -> bool:
        try:
            if fd is None:
                self.control.send(payload)
            else:
                socket.send_fds(self.control, [payload], [fd])
        except BlockingIOError:
            return False
        except OSError:
            return True  # the other end is gone: that is handled where its datagrams are read
        return True

    def _drain(self) -> None:
        while self.waiting:
            payload, fd = self.waiting[0]
            if not self._send(payload, fd):
                return
            self.waiting.popleft()
            if fd is not None:
                os.close(fd)
        asyncio.get_running_loop().remove_writer(self.control)


class Handed:
    """One stream the writer writes: the answer's body, as the API process sees it."""

    def __init__(
        self, writer: StreamWriter, transport: asyncio.Transport, client: str, opening: Message
    ) -> None:
        self.writer, self.transport, self.client, self.opening = writer, transport, client, opening
        self.ended = False
        self.messages = self._messages()

    async def _messages(self) -> AsyncGenerator[bytes, None]:
        """Nothing, while the writer writes the body; ends when the writer has written its
        last event (the answer's last chunk then follows), or when the client has left."""
        writer, transport = self.writer, self.transport
        done = asyncio.get_running_loop().create_future()
        writer.pending[self.opening.id] = done
        try:
            # The head went out before the body began: let it leave this process first.
            while transport.get_write_buffer_size() and not transport.is_closing():
                await asyncio.sleep(0.005)
            sock: Any = transport.get_extra_info("socket")
            if transport.is_closing() or sock is None:
                return
            if not writer.post(self.opening, sock.fileno()):
                done.set_result(False)
            if not await done:
                transport.abort()  # a chunk may be cut short: end the connection, not the body
        finally:
            if writer.pending.pop(self.opening.id, None) is not None and not done.done():
                writer.post(Message("drop", self.opening.id))
            self.release()
        return
        yield b""  # an async generator that sends nothing itself

    def release(self) -> None:
        if not self.ended:
            self.ended = True
            self.writer.slots.give(self.client)

    async def close(self) -> None:
        """After the answer, however it ended (as StreamHub.close)."""
        await self.messages.aclose()
        self.release()
