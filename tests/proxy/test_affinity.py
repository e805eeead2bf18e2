"""deploy/proxy/nginx.conf in front of two API processes: every request about a game reaches
one of them, whichever connection of whichever seat it comes on, and the games spread over
both. A real nginx (Debian's; `make test-proxy` installs it) and real `danger serve`
processes on the session's Valkey."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import httpx
import pytest

from bench.run import wait_healthy
from tests.players import Table, new_table

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "proxy" / "nginx.conf"
GAMES = 16
COMMANDS = 6  # of each game, each seat's on its own connection


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def proxied(valkey, tmp_path):
    """Two API processes and the proxy before them: (the proxy's URL, each process's log)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is missing: `make test-proxy` installs it (Debian's nginx-light)")
    ports = [free_port(), free_port()]
    env = {
        **os.environ,
        "REDIS_URL": valkey.url,
        "DANGER_RATE_LIMITS": "off",
        "DANGER_OPEN_GAMES_PER_CLIENT": "0",
        "DANGER_TRUSTED_PROXY": "127.0.0.1",
        "DANGER_STREAM_PROCESS": "off",
        "DANGER_LOG_FORMAT": "json",
    }
    env.pop("DANGER_QUEUE_URL", None)
    logs = [tmp_path / f"api{n}.log" for n in range(2)]
    apis = []
    for port, log in zip(ports, logs, strict=True):
        command = [sys.executable, "-m", "service.cli", "serve", "--api-only", "--port", str(port)]
        with log.open("wb") as out:
            apis.append(subprocess.Popen(command, env=env, stdout=out, stderr=out))
    port = free_port()
    text = CONFIG.read_text()
    text = text.replace("listen 127.0.0.1:8000;", f"listen 127.0.0.1:{port};")
    text = text.replace("server 127.0.0.1:8001;", f"server 127.0.0.1:{ports[0]};")
    text = text.replace("server 127.0.0.1:8002;", f"server 127.0.0.1:{ports[1]};")
    assert str(ports[1]) in text, "the example's servers are not where the test looks"
    (tmp_path / "nginx.conf").write_text(text)
    settings = f"daemon off; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;"
    proxy = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", settings],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for api_port, api in zip(ports, apis, strict=True):
            wait_healthy(f"http://127.0.0.1:{api_port}/v1/games?limit=1", api)
        wait_healthy(f"http://127.0.0.1:{port}/v1/games?limit=1", proxy)
        yield f"http://127.0.0.1:{port}", logs
    finally:
        proxy.send_signal(signal.SIGQUIT)
        for proc in (*apis, proxy):
            proc.terminate()
        for proc in (*apis, proxy):
            proc.wait(timeout=20)


def requests_by_game(log: Path) -> dict[str, list[str]]:
    """The requests about a game an API process logged, by game (method and path)."""
    out: dict[str, list[str]] = defaultdict(list)
    for line in log.read_text().splitlines():
        if not line.startswith("{"):
            continue
        request = json.loads(line).get("request")
        # A new game is made by whichever process: what follows names it.
        if request and request.get("game") and request["path"] != "/v1/games":
            out[request["game"]].append(f"{request['method']} {request['path']}")
    return out


async def test_every_request_about_a_game_reaches_one_process(proxied):
    url, logs = proxied
    seats = 3
    clients = [httpx.AsyncClient(base_url=url, timeout=10) for _ in range(seats)]
    played = []
    try:
        for _ in range(GAMES):
            made = await new_table(clients[0], seats=seats)
            tables = [Table(c, made.id, made.admin, made.tokens) for c in clients]
            for _ in range(COMMANDS):
                state = await tables[0].state()
                seat = state["view"]["state"]["turn"]
                legal = (await tables[seat].state(seat))["legal"]
                r = await tables[seat].send(seat, legal[0])
                assert r.status_code == 200, r.text
            played.append(made.id)
    finally:
        for client in clients:
            await client.aclose()
    time.sleep(0.2)  # the log writers' last lines
    seen = [requests_by_game(log) for log in logs]
    where = {}
    for game in played:
        served = [n for n in range(2) if game in seen[n]]
        assert len(served) == 1, f"{game} reached {len(served)} processes"
        commands = [r for r in seen[served[0]][game] if r.endswith("/commands")]
        assert len(commands) == COMMANDS
        where[game] = served[0]
    assert set(where.values()) == {0, 1}, "the games did not spread over both processes"
