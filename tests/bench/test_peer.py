"""The peer bench's machinery (bench/peer.py: boardgame.io's server and its load, two node
processes) on a short run, so that it keeps working between the runs that give its figure.
Nothing here is about speed. Needs node and npm; `npm ci` (about 15 s, from the npm
registry) runs first when bench/boardgame_io/node_modules is missing or stale."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench import peer
from tests.processes import alive


def node_children() -> list[int]:
    """This process's children that run the harness's scripts."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == os.getpid() and str(peer.HERE).encode() in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(peer.missing_tools() is not None, reason="node or npm is missing")
def test_boardgame_io_acknowledges_moves_and_its_processes_end():
    try:
        peer.install()
    except (subprocess.SubprocessError, OSError) as error:
        pytest.skip(f"npm ci failed (no registry?): {error}")

    figures = peer.measure(duration=2, warmup=1)

    assert figures is not None
    assert figures["moves"] > 0 and figures["moves_per_s"] > 0, figures
    assert figures["p50_ms"] > 0 and figures["matches"] >= 0, figures
    assert figures["errors"] == {"lobby": 0, "stalled": 0, "other": 0}, figures
    assert figures["boardgame_io"] == "0.50.2"
    assert figures["server_cpu_s"] > 0, figures
    assert not any(alive(pid) for pid in figures["pids"].values()), figures["pids"]
    assert node_children() == []
