"""An answer's head and body leave in one write (service/http/http_protocols.py, `Gathered`),
and nothing held back is lost: it counts as buffered, and a close sends it first."""

from __future__ import annotations

import asyncio
import socket

from service.http.http_protocols import Gathered


async def connected() -> tuple[asyncio.Transport, socket.socket, list[bytes]]:
    """A real transport over one end of a socket pair; the other end; the writes it made."""
    ours, theirs = socket.socketpair()
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours)
    assert isinstance(transport, asyncio.Transport)
    writes: list[bytes] = []
    write = transport.write

    def counted(data: bytes | bytearray | memoryview) -> None:
        writes.append(bytes(data))
        write(data)

    transport.write = counted  # type: ignore[method-assign]  # a spy on the real write
    theirs.setblocking(False)
    return transport, theirs, writes


async def received(peer: socket.socket, size: int) -> bytes:
    loop = asyncio.get_running_loop()
    got = b""
    while len(got) < size:
        chunk = await loop.sock_recv(peer, size - len(got))
        if not chunk:
            break
        got += chunk
    return got


async def test_the_writes_of_one_turn_leave_as_one():
    transport, peer, writes = await connected()
    gathered = Gathered(transport, asyncio.get_running_loop())
    gathered.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    gathered.write(b"{}")
    assert writes == []
    assert gathered.get_write_buffer_size() == 40
    await asyncio.sleep(0)
    assert writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
    assert await received(peer, 40) == b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"
    gathered.write(b"next")
    await asyncio.sleep(0)
    assert writes[1:] == [b"next"]
    transport.close()
    peer.close()


async def test_a_close_sends_what_was_held_first():
    transport, peer, _ = await connected()
    gathered = Gathered(transport, asyncio.get_running_loop())
    gathered.write(b"431 and goodbye")
    gathered.close()
    assert await received(peer, 100) == b"431 and goodbye"
    await asyncio.sleep(0)  # the turn's send finds nothing more to send
    peer.close()
