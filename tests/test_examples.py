"""examples/play.py plays a whole game of each kind on a real server, printing each round's
scores, and fails loudly where no API answers."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import make_app, on_socket

PLAY = Path(__file__).parents[1] / "examples" / "play.py"


@pytest.fixture(scope="module")
async def api(valkey) -> AsyncIterator[str]:
    async with on_socket(make_app(valkey)) as url:
        yield url


def dead_address() -> str:
    """An address on loopback where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """play.py's exit status, output and errors."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(PLAY),
        *args,
        env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("danger", "env"),
        ("high-voltage", "flag"),
        ("danger-13", "env"),
        ("danger-danger", "flag"),
    ],
)
async def test_play_plays_a_whole_game_and_prints_every_rounds_scores(
    api: str, kind: str, where: str
) -> None:
    # The address from DANGER_API, or from --api over a DANGER_API that leads nowhere.
    if where == "env":
        status, out, err = await run(kind, "--seed", "7", env={"DANGER_API": api})
    else:
        status, out, err = await run(
            kind, "--seed", "7", "--api", api, env={"DANGER_API": dead_address()}
        )
    assert status == 0, f"play.py {kind} failed:\n{out}\n{err}"
    found = re.search(r"game (\S+): " + re.escape(kind), out)
    assert found, out
    async with httpx.AsyncClient(base_url=api) as http:
        game = (await http.get(f"/v1/games/{found[1]}")).json()
        events = (await http.get(f"/v1/games/{found[1]}/events", params={"limit": 1000})).json()
    assert game["status"] == "finished"
    rounds = [e["data"]["round"] for e in events["events"] if e["type"] == "round_scored"]
    printed = [int(n) for n in re.findall(r"^\s*\S+s  round (\d+)(?::| \()", out, re.MULTILINE)]
    assert rounds and printed == rounds, out
    over = [line for line in out.splitlines() if "  game over: " in line]
    assert len(over) == 1 and out.rstrip().endswith("done"), out
    if kind in ("danger", "high-voltage"):
        totals = game["view"]["state"]["totals"]
        names = ("Anton", "Bert", "Chris")
        assert over[0].endswith(
            "totals " + ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True))
        )


async def test_play_says_so_and_fails_where_no_api_answers() -> None:
    address = dead_address()
    status, _, err = await run("danger", env={"DANGER_API": address})
    assert status == 1
    assert f"cannot reach the Danger Hall API at {address}" in err
    assert "DANGER_API" in err and "Traceback" not in err
    status, _, err = await run("danger", "--api", "localhost:8000")
    assert status == 1 and "cannot reach the Danger Hall API at localhost:8000" in err


async def test_play_danger_sh_says_so_and_fails_where_no_api_answers() -> None:
    address = dead_address()
    process = await asyncio.create_subprocess_exec(
        "bash",
        str(PLAY.with_name("play-danger.sh")),
        env={**os.environ, "DANGER_API": address},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1 and out == b""
    assert f"cannot reach the Danger Hall API at {address}" in err.decode()
