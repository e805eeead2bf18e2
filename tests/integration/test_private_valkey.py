"""The embedded Valkey is its user's alone: nothing is answered without its password, and the
password, the configuration, the append-only files and the log are readable by nobody else."""

from __future__ import annotations

import os
import signal
import socket
import stat
import time
from pathlib import Path

import pytest
import redis

from service.infra.embedded import PASSWORD_FILE, EmbeddedValkey
from tests.integration.test_restart import free_port, serve
from tests.processes import run_cli


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def raw(port: int, *commands: bytes) -> bytes:
    """Commands sent as any local process could, without a password; the answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"".join(commands))
        answer = b""
        while answer.count(b"\r\n") < len(commands):
            answer += s.recv(256)
        return answer


def assert_private(data_dir: Path) -> list[str]:
    """Every file and directory the server keeps, 0600 and 0700; their names."""
    assert mode(data_dir) == 0o700
    seen = []
    for root, dirs, files in os.walk(data_dir):
        for name in dirs:
            assert mode(Path(root, name)) == 0o700, name
        for name in files:
            assert mode(Path(root, name)) == 0o600, name
            seen.append(os.path.relpath(Path(root, name), data_dir))
    return sorted(seen)


@pytest.fixture
def server(tmp_path: Path):
    valkey = EmbeddedValkey(tmp_path / "data")
    valkey.start()
    yield valkey
    valkey.stop()


def test_without_its_password_the_server_reads_and_writes_nothing(server):
    with redis.Redis.from_url(server.url) as owner:
        owner.set("dg:secret", "seed")
    ping = b"*1\r\n$4\r\nPING\r\n"
    get = b"*2\r\n$3\r\nGET\r\n$9\r\ndg:secret\r\n"
    put = b"*3\r\n$3\r\nSET\r\n$9\r\ndg:secret\r\n$6\r\nforged\r\n"
    answers = raw(server.port, ping, get, put).split(b"\r\n")
    assert all(a.startswith(b"-NOAUTH") for a in answers[:3]), answers
    wrong = b"*2\r\n$4\r\nAUTH\r\n$5\r\nguess\r\n"
    assert raw(server.port, wrong).startswith(b"-WRONGPASS")
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(port=server.port).get("dg:secret")
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(port=server.port, password="guess").set("dg:secret", "forged")
    with redis.Redis.from_url(server.url) as owner:
        assert owner.get("dg:secret") == b"seed"


def test_the_password_is_random_kept_and_private(tmp_path, server):
    password = (server.data_dir / PASSWORD_FILE).read_text().strip()
    assert len(password) == 64 and int(password, 16) >= 0  # 32 random bytes, in hex
    assert server.url == f"redis://:{password}@127.0.0.1:{server.port}/0"
    assert password in (server.data_dir / "valkey.conf").read_text()
    with redis.Redis.from_url(server.url) as owner:
        owner.set("kept", "1")
    server.stop()
    again = EmbeddedValkey(server.data_dir)
    again.start()
    try:
        assert again.url.startswith(f"redis://:{password}@")
        with redis.Redis.from_url(again.url) as owner:
            assert owner.get("kept") == b"1"
    finally:
        again.stop()
    other = EmbeddedValkey(tmp_path / "other")
    other.start()
    other.stop()
    assert (other.data_dir / PASSWORD_FILE).read_text().strip() != password


def test_the_data_directory_and_every_file_in_it_are_private(server):
    with redis.Redis.from_url(server.url) as owner:
        owner.set("dg:secret", "seed")
        base = server.data_dir / "appendonlydir" / "appendonly.aof.2.base.rdb"
        owner.bgrewriteaof()  # files the server makes later are private as well
        deadline = time.monotonic() + 30
        while not base.exists():
            assert time.monotonic() < deadline, "no rewrite"
            time.sleep(0.05)
    files = assert_private(server.data_dir)
    for name in [".lock", PASSWORD_FILE, "valkey.conf", "valkey.log"]:
        assert name in files
    assert any(f.startswith("appendonlydir/") and f.endswith(".aof") for f in files), files


def test_a_data_directory_made_before_it_was_private_is_made_private(tmp_path):
    data = tmp_path / "old"
    (data / "appendonlydir").mkdir(parents=True)
    for path, permissions in [(data, 0o755), (data / "appendonlydir", 0o755)]:
        os.chmod(path, permissions)
    for name in ["valkey.log", "valkey.conf"]:
        (data / name).write_text("")
        os.chmod(data / name, 0o644)
    mine = data / "notes.txt"  # not the server's: left as it is
    mine.write_text("")
    os.chmod(mine, 0o644)
    valkey = EmbeddedValkey(data)
    valkey.start()
    valkey.stop()
    assert mode(mine) == 0o644
    mine.unlink()
    assert_private(data)


def test_serve_prints_where_the_server_is_and_where_its_password_lives_but_not_the_password(
    tmp_path,
):
    port = free_port()
    log = tmp_path / "serve.out"
    data = tmp_path / "data"
    with open(log, "w") as output:
        proc = serve(data, port, output=output)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    password = (data / PASSWORD_FILE).read_text().strip()
    printed = log.read_text()
    line = next(x for x in printed.splitlines() if "embedded Valkey on 127.0.0.1:" in x)
    assert str(data.resolve() / PASSWORD_FILE) in line
    assert password not in printed
    # and a later command on the same data finds the password it needs
    rebuilt = run_cli("projections", "rebuild", DANGER_DATA_DIR=str(data))
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert password not in rebuilt.stdout + rebuilt.stderr
