"""The lab's faults are real: a cut stops what passes between two hosts (and nothing else),
a slow link delays and drops, and a heal gives every link back. Skipped where network
namespaces cannot be made."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.faults.lab import Host, Lab, why_not

REASON = why_not()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
PORT = 7000
SERVE = (
    "import socket, sys\n"
    "s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
    "s.bind((sys.argv[1], int(sys.argv[2]))); s.listen()\n"
    "while True:\n"
    "    c, _ = s.accept(); c.sendall(b'hi'); c.close()\n"
)
REACH = (
    "import socket, sys\n"
    "try:\n"
    "    print(socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=1).recv(2))\n"
    "except OSError:\n"
    "    print('cut')\n"
)


@pytest.fixture
def lab() -> Iterator[tuple[Lab, Host, Host, Host]]:
    lab = Lab()
    try:
        a, b, c = lab.host("a"), lab.host("b"), lab.host("c")
        server = subprocess.Popen(b.command([sys.executable, "-c", SERVE, b.ip, str(PORT)]))
        time.sleep(0.5)
        yield lab, a, b, c
        server.kill()
        server.wait()
    finally:
        lab.close()


def reaches(host: Host, server: Host) -> bool:
    done = subprocess.run(
        host.command([sys.executable, "-c", REACH, server.ip, str(PORT)]),
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() == "b'hi'"


def test_a_cut_stops_two_hosts_and_only_them_and_a_heal_gives_it_back(lab):
    lab, a, b, c = lab
    assert reaches(a, b) and reaches(c, b)
    lab.cut(a, b)
    assert not reaches(a, b)
    assert reaches(c, b)
    assert socket.create_connection((b.ip, PORT), timeout=1).recv(2) == b"hi"  # the driver
    lab.heal()
    assert reaches(a, b)


def test_a_slow_link_drops_and_heals(lab):
    lab, a, b, _ = lab
    lab.slow(a, b)
    # Each packet crosses two drops of a fifth (the sender's way out, the receiver's way
    # in): a connection and its reply within a second all get through about two times in
    # five, so twelve in a row with none lost is about one run in fifty thousand.
    tries = [reaches(a, b) for _ in range(12)]
    lab.heal()
    assert not all(tries)
    assert all(reaches(a, b) for _ in range(5))


def test_closing_leaves_no_namespace_or_link():
    lab = Lab()
    lab.host("x")
    names = (lab.bridge, f"{lab.bridge}-x")
    lab.close()
    namespaces = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    assert names[1] not in namespaces and f" {names[0]}:" not in links
