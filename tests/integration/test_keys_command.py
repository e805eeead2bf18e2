"""`danger keys` works on the running service's store, or refuses: a key it wrote into a store
of its own (a `.data` of whatever directory it was run in) would print fine and then be
refused by the service as `key_invalid`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from service.infra.embedded import EmbeddedValkey
from tests.integration.test_restart import free_port, serve

DANGER = {"game": "danger", "seats": 2}


def danger_keys(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`danger keys ...` run in `cwd`, as an operator at a terminal there: no store named but
    by `env`."""
    unset = ("REDIS_URL", "DANGER_QUEUE_URL", "DANGER_DATA_DIR")
    environ = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "keys", *args],
        env={**environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_with_no_service_running_every_action_refuses_and_starts_no_store(tmp_path):
    stopped = tmp_path / "stopped"  # a service's data directory, the service stopped
    server = EmbeddedValkey(stopped)
    server.start()
    server.stop()
    for action in (["create", "My App"], ["list"], ["revoke", "abc"]):
        for env in ({}, {"DANGER_DATA_DIR": str(stopped)}):
            done = danger_keys(*action, cwd=tmp_path, **env)
            where = env.get("DANGER_DATA_DIR", str(tmp_path / ".data"))
            assert done.returncode == 2, (action, env, done.stdout, done.stderr)
            assert done.stdout == "" and "dhk_" not in done.stderr
            assert f"no service is running on the data directory {where}" in done.stderr
            assert "danger serve" in done.stderr and "REDIS_URL" in done.stderr
            assert "Traceback" not in done.stderr
    assert not (tmp_path / ".data").exists()  # nothing was started there


def test_a_store_that_cannot_be_reached_is_refused_with_its_address(tmp_path):
    port = free_port()
    done = danger_keys("create", "My App", cwd=tmp_path, REDIS_URL=f"redis://127.0.0.1:{port}/0")
    assert done.returncode == 2, done.stderr
    assert f"cannot reach the store at 127.0.0.1:{port} (REDIS_URL)" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


async def test_run_where_make_run_runs_the_key_is_the_running_services(tmp_path):
    """`make run` serves on `.data` in its directory: `danger keys create` run there finds
    it, and the service takes the key it printed."""
    port = free_port()
    proc = serve(tmp_path / ".data", port, settings={"DANGER_AUTH": "keys"})
    try:
        made = danger_keys("create", "Table Top Inc.", cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        token = next(x.split()[1] for x in made.stdout.splitlines() if x.startswith("key:"))
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            r = await http.post(
                "/v1/games", json=DANGER, headers={"Authorization": f"Bearer {token}"}
            )
            assert r.status_code == 201, r.text
        listed = danger_keys("list", cwd=tmp_path / ".data", DANGER_DATA_DIR=".")
        assert listed.returncode == 0, listed.stderr
        assert "Table Top Inc." in listed.stdout
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def test_an_operator_adds_lists_pauses_and_removes_a_keys_webhook(valkey):
    """`danger keys webhook ...` on the running service's store (REDIS_URL): the secret is
    shown once, a URL the service may not reach is refused, an unknown key is refused."""
    from tests.processes import run_cli

    made = run_cli("keys", "create", "hooks", REDIS_URL=valkey.url)
    key_id = made.stdout.split()[1]
    add = ("keys", "webhook", "add", key_id)
    refused = run_cli(
        *add, "http://127.0.0.1:9/h", "--events", "game.finished", REDIS_URL=valkey.url
    )
    assert refused.returncode == 1 and "127.0.0.1" in refused.stderr
    unknown = run_cli(*add, "https://93.184.216.34/h", "--events", "game.won", REDIS_URL=valkey.url)
    assert unknown.returncode == 2 and "game.won" in unknown.stderr
    added = run_cli(
        *add,
        "https://93.184.216.34/h",
        "--events",
        "game.finished,turn.changed",
        REDIS_URL=valkey.url,
    )
    assert added.returncode == 0, added.stderr
    hook_id = added.stdout.split()[1]
    assert "whsec_" in added.stdout
    listed = run_cli("keys", "webhook", "list", key_id, REDIS_URL=valkey.url)
    assert hook_id in listed.stdout and "game.finished,turn.changed" in listed.stdout
    paused = run_cli("keys", "webhook", "pause", key_id, hook_id, REDIS_URL=valkey.url)
    assert paused.returncode == 0
    assert (
        "paused by its owner"
        in run_cli("keys", "webhook", "list", key_id, REDIS_URL=valkey.url).stdout
    )
    removed = run_cli("keys", "webhook", "remove", key_id, hook_id, REDIS_URL=valkey.url)
    assert removed.returncode == 0
    assert hook_id not in run_cli("keys", "webhook", "list", key_id, REDIS_URL=valkey.url).stdout
    nobody = run_cli("keys", "webhook", "list", "nosuchkey000", REDIS_URL=valkey.url)
    assert nobody.returncode == 1
