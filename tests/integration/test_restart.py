"""What survives: the service and its embedded server killed and started again."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx
import pytest

from service.infra.embedded import DataDirInUse, EmbeddedValkey
from tests.players import bot_table, new_table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(
    data_dir: Path,
    port: int,
    *flags: str,
    output: IO | None = None,
    store: dict[str, str] | None = None,
    session: bool = False,
    settings: dict[str, str] | None = None,
) -> subprocess.Popen:
    """`danger serve` on the embedded server in `data_dir` (or on the store `store` names:
    REDIS_URL, DANGER_QUEUE_URL); what it prints goes to `output`; with `session`, in a
    session (and process group) of its own, as a terminal starts it."""
    env = {**os.environ, "DANGER_DATA_DIR": str(data_dir), "DANGER_PORT": str(port)}
    # Clients here play as fast as they can from one address: no per-client limits.
    env.update(DANGER_RATE_LIMITS="off", DANGER_OPEN_GAMES_PER_CLIENT="0")
    env.pop("REDIS_URL", None)
    env.pop("DANGER_QUEUE_URL", None)
    env.update(store or {})
    env.update(settings or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", *flags],
        env=env,
        stdout=output or subprocess.DEVNULL,
        stderr=output or subprocess.DEVNULL,
        start_new_session=session,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("danger serve did not come up")


def valkey_children(data_dir: Path) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [int(line.split()[0]) for line in out.splitlines() if str(data_dir) in line]


async def play_some(base: str) -> tuple[str, list[str], int]:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        table = await new_table(http, seats=2)
        for _ in range(6):
            s = await table.state()
            seat = s["view"]["state"]["turn"]
            legal = (await table.state(seat))["legal"]
            assert (await table.send(seat, legal[0])).status_code == 200
        return table.id, table.tokens, (await table.state())["seq"]


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
async def test_a_stopped_service_keeps_every_answered_command_and_leaves_no_server(tmp_path, how):
    port = free_port()
    proc = serve(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    game_id, tokens, seq = await play_some(base)
    writers = stream_writers(proc.pid)
    assert len(writers) == 1
    proc.send_signal(how)
    proc.wait(timeout=20)
    deadline = time.monotonic() + 10
    while (valkey_children(tmp_path) or alive(writers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert valkey_children(tmp_path) == [], "the embedded server outlived the service"
    assert alive(writers) == [], "the stream writer outlived the service"

    proc = serve(tmp_path, port)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            r = await http.get(f"/v1/games/{game_id}")
            assert r.json()["seq"] == seq
            events = (await http.get(f"/v1/games/{game_id}/events")).json()["events"]
            assert [e["seq"] for e in events] == list(range(1, seq + 1))
            # and the game plays on
            state = r.json()["view"]["state"]
            headers = {"Authorization": f"Bearer {tokens[state['turn']]}"}
            legal = (await http.get(f"/v1/games/{game_id}", headers=headers)).json()["legal"]
            r = await http.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=headers)
            assert r.status_code == 200 and r.json()["seq"] > seq
    finally:
        proc.terminate()
        proc.wait(timeout=20)


async def test_ctrl_c_in_a_terminal_stops_the_service_and_its_processes_quietly(tmp_path):
    """A terminal's Ctrl-C signals the whole process group: the service, its embedded
    server's parent and its stream writer all get SIGINT; the service shuts down, the rest
    end after it, and nothing prints a traceback."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        proc = serve(tmp_path / "data", port, output=output, session=True)
        await play_some(f"http://127.0.0.1:{port}")
        writers = stream_writers(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=20)  # uvicorn raises the signal again once it has shut down
    deadline = time.monotonic() + 10
    while alive(writers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert writers and alive(writers) == []
    printed = log.read_text()
    assert "Application shutdown complete" in printed
    assert "Traceback" not in printed and "KeyboardInterrupt" not in printed


def test_one_data_dir_serves_one_server_at_a_time(tmp_path):
    first = EmbeddedValkey(tmp_path)
    first.start()
    try:
        with pytest.raises(DataDirInUse):
            EmbeddedValkey(tmp_path).start()
    finally:
        first.stop()


async def test_two_api_processes_and_their_worker_serve_one_game_and_stop_together(tmp_path):
    port = free_port()
    proc = serve(tmp_path, port, "--workers", "2")
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            game_id = await bot_table(http)
            # The worker's projections hear the feeds' bell: the lobby shows the game at once
            # (a reader that is not rung looks at the feeds only every 5 s).
            listed = time.monotonic() + 2
            while game_id not in [g["id"] for g in (await http.get("/v1/games")).json()["games"]]:
                assert time.monotonic() < listed, "the lobby did not show the game"
                time.sleep(0.05)
            # Nobody plays but the bots, so the worker process must be running.
            deadline = time.monotonic() + 60
            while (await http.get(f"/v1/games/{game_id}")).json()["status"] != "finished":
                assert time.monotonic() < deadline, "the bots did not finish the game"
                time.sleep(0.1)
            # Whichever process a scrape reaches, /metrics sums every process: the worker's
            # bot moves, and the requests each API process answered.
            marked = {"X-Request-ID": "metrics-probe"}
            for _ in range(20):
                assert (await http.get(f"/v1/games/{game_id}/events", headers=marked)).is_success
            route = (
                'danger_http_request_duration_seconds_count{method="GET",'
                'route="/v1/games/{game_id}/events",status="200"}'
            )
            for _ in range(6):
                async with httpx.AsyncClient(base_url=base, timeout=10) as fresh:  # new connection
                    scraped = (await fresh.get("/metrics")).text
                rows = [line for line in scraped.splitlines() if not line.startswith("#")]
                lines = dict(line.rsplit(" ", 1) for line in rows)
                assert float(lines[route]) == 20.0
                assert float(lines['danger_bot_moves_total{game="danger"}']) > 0
    finally:
        workers = [pid for pid in descendants(proc.pid) if "service.cli worker" in args_of(pid)]
        samples = shared_samples(workers[0]) if workers else None
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    assert workers, "no worker process ran"
    deadline = time.monotonic() + 10
    while valkey_children(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert valkey_children(tmp_path) == [], "the embedded server outlived the service"
    while any(args_of(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(args_of(pid) for pid in workers), "the worker outlived the service"
    assert samples is not None and not samples.exists(), "the metrics' files outlived it"


async def test_one_api_process_leaves_the_background_to_a_worker_it_starts_again(tmp_path):
    """`danger serve` of one API process runs the projections, timers and bots in a `danger
    worker` beside it, never in the API process; a worker that dies is started again, and
    the bots of a game go on playing."""
    port = free_port()
    proc = serve(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    try:

        def workers() -> list[int]:
            return [p for p in descendants(proc.pid) if "service.cli worker" in args_of(p)]

        first = workers()
        assert len(first) == 1, "one worker beside the API process"
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 15
        while not (workers() and workers() != first):
            assert time.monotonic() < deadline, "the worker was not started again"
            time.sleep(0.1)
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            game_id = await bot_table(http)
            deadline = time.monotonic() + 60
            while (await http.get(f"/v1/games/{game_id}")).json()["status"] != "finished":
                assert time.monotonic() < deadline, "the bots did not finish the game"
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def shared_samples(pid: int) -> Path | None:
    """Where the process writes its metrics for the others (PROMETHEUS_MULTIPROC_DIR)."""
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    found = [v.split(b"=", 1)[1] for v in environ if v.startswith(b"PROMETHEUS_MULTIPROC_DIR=")]
    return Path(found[0].decode()) if found else None


def descendants(pid: int) -> list[int]:
    """Every process below `pid` now (this test's own: other runs on the machine have
    workers of their own)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def args_of(pid: int) -> str:
    """The command line of a live process ('' once it is gone or a zombie)."""
    try:
        return (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
    except OSError:
        return ""


def stream_writers(pid: int) -> list[int]:
    """The service's stream writers (service/live/stream_writer.py): one per API process."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [p for p in descendants(pid) if "service.assembly.stream_process" in args_of(p)]
        if found:
            return found
        time.sleep(0.05)
    return []


def alive(pids: list[int]) -> list[int]:
    return [p for p in pids if args_of(p)]


@pytest.mark.parametrize("access_log", [False, True])
def test_each_request_is_logged_once_by_every_process_unless_access_lines_are_asked_for(
    tmp_path, access_log
):
    """The API processes of `--workers 2` log each request in one line of their own; uvicorn's
    access line comes too only with `--access-log`."""
    port = free_port()
    flags = ["--workers", "2", *(["--access-log"] if access_log else [])]
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        proc = serve(tmp_path / "data", port, *flags, output=output)
        try:
            for n in range(6):
                marked = {"X-Request-ID": f"once-{n}"}
                assert httpx.get(f"http://127.0.0.1:{port}/v1/games", headers=marked).is_success
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    lines = log.read_text().splitlines()
    assert sum('"id":"once-' in line for line in lines) == 6
    access = [line for line in lines if "uvicorn.access" in line and "/v1/games" in line]
    assert len(access) == (6 if access_log else 0), access
