"""The socket several API processes listen on.

uvicorn before 0.55 binds it for its worker processes as `socket.socket(family)`, protocol 0
(0.55 names TCP itself, and then this changes nothing); asyncio turns Nagle's algorithm off
(TCP_NODELAY) only on sockets whose protocol says TCP, and an accepted connection inherits
the listener's. Left on, an answer written as two pieces (its
head, then its body) waits for the client's delayed ACK of the first: about 40 ms on Linux,
for about half the answers of `danger serve --workers 2` (docs/performance.md, "Capacity").
"""

from __future__ import annotations

import os
import signal
import socket

import uvicorn
from uvicorn.supervisors import Multiprocess

from service.infra import logs


class TcpConfig(uvicorn.Config):
    def configure_logging(self) -> None:
        """Also, in each API process before its server starts: SIGTERM writes the log's last
        lines before it ends the process. uvicorn shuts down gracefully on the signal, then
        raises it again with the handler it found; the default one would end the process
        there, with the lines still gathering in the log's writer (service/infra/logs.py)."""
        super().configure_logging()
        signal.signal(signal.SIGTERM, _exit)

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto != socket.IPPROTO_TCP:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
        return sock


def _exit(signum: int, frame: object) -> None:
    logs.stop()  # the lines still gathering
    os._exit(0)


def serve_processes(config: TcpConfig) -> None:
    """`config.workers` processes on one socket, as `uvicorn.run` starts them."""
    Multiprocess(config, sockets=[config.bind_socket()]).run()
