"""The connections of `danger serve --workers N` have Nagle's algorithm off, as a single
process's have: an answer's body does not wait for the client's delayed ACK of its head."""

from __future__ import annotations

import asyncio
import socket

import uvicorn

from service.infra.listening import TcpConfig


async def nodelay_of_accepted(sock: socket.socket) -> int:
    """TCP_NODELAY of a connection accepted on `sock` by an asyncio server, as uvicorn's."""
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            conn = transport.get_extra_info("socket")
            accepted.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
    port = sock.getsockname()[1]
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await asyncio.wait_for(accepted, 10)
    finally:
        writer.close()
        server.close()


async def test_the_socket_of_several_processes_has_nagle_off_on_every_connection():
    """Whichever uvicorn is installed: before 0.55 its own socket left Nagle on."""
    options = {"host": "127.0.0.1", "port": 0, "workers": 2}
    ours = TcpConfig("service.assembly.app:from_env", factory=True, **options).bind_socket()
    assert ours.proto == socket.IPPROTO_TCP
    assert await nodelay_of_accepted(ours) != 0


def test_on_uvloop_too_every_connection_has_nagle_off():
    """`DANGER_SERVER_STACK=uvloop` (and `auto`, where uvloop is installed) runs the API on
    uvloop, whose transports are its own: their connections too answer without waiting."""
    import uvloop

    options = {"host": "127.0.0.1", "port": 0, "workers": 2}
    for config in (uvicorn.Config, TcpConfig):
        sock = config("service.assembly.app:from_env", factory=True, **options).bind_socket()
        loop = uvloop.new_event_loop()
        try:
            assert loop.run_until_complete(nodelay_of_accepted(sock)) != 0, config
        finally:
            loop.close()


def test_the_server_stack_is_a_setting_and_an_unknown_one_is_refused(monkeypatch):
    import pytest

    from service.infra.config import Settings

    monkeypatch.setenv("DANGER_SERVER_STACK", "asyncio")
    assert Settings.from_env().server.loop_and_http == ("asyncio", "h11")
    monkeypatch.setenv("DANGER_SERVER_STACK", "uvloop")
    assert Settings.from_env().server.loop_and_http == ("uvloop", "httptools")
    monkeypatch.setenv("DANGER_SERVER_STACK", "granite")
    with pytest.raises(ValueError, match="DANGER_SERVER_STACK must be one of"):
        Settings.from_env()
