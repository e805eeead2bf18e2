"""A webhook receiver on a loopback port: a real HTTP/1.1 server (asyncio streams) that keeps
every request it is sent and answers as a test tells it: a status, a Retry-After, or no
server at all (`down`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    status: int = 200
    retry_after: str | None = None
    hold: float = 0.0  # seconds before each answer
    received: list[Received] = field(default_factory=list)
    server: asyncio.Server | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    async def up(self) -> Receiver:
        self.server = await asyncio.start_server(self._answer, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def down(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split(" ")[1]
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                self.received.append(Received(path, headers, body))
                if self.hold:
                    await asyncio.sleep(self.hold)
                extra = f"Retry-After: {self.retry_after}\r\n" if self.retry_after else ""
                writer.write(
                    f"HTTP/1.1 {self.status} X\r\nContent-Length: 2\r\n{extra}\r\nok".encode()
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
