"""clients/verifier (danger-verify) against the live service: finished games of every kind
played through the API, with every receipt their answers carried, the keys of GET /v1/keys,
the heads, proofs and entries of the transparency log (docs/transparency.md), checked by the
verifier's Python API and by its command line, and compared with the service's own audit
(events.audit.audit_export, what `danger audit` runs).

- the honest export passes every check;
- a rewrite with every hash recomputed (tests/transparency/rewrite.py) passes the export's
  own checks (chain, commitment, shuffles) and the audit's, and fails the receipts, the
  inclusion proof and the log's entries: the entries catch it with no receipt at all;
- a monitor's check of an older and a newer head with the log's consistency proof passes,
  and fails for a wrong proof."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from danger_verify.chain import parse_export
from danger_verify.entries import parse_entries
from danger_verify.keys import parse_keys
from danger_verify.proofs import parse_consistency, parse_inclusion
from danger_verify.receipts import parse_receipts
from danger_verify.report import Report
from danger_verify.tree_heads import parse_head
from danger_verify.verify import verify_consistency, verify_export
from litestar.testing import AsyncTestClient

from events.audit import audit_export
from tests.conftest import make_app, wait_for
from tests.players import bearer
from tests.transparency.rewrite import renamed

FAST: dict[str, Any] = {"log_seconds": 0.1, "log_checkpoint_seconds": 0.0}
KINDS = [
    ("danger", 2, {}),
    ("high-voltage", 2, {}),
    ("danger-13", 2, {}),
    ("danger-danger", 2, {"round_seconds": 3600}),
]
GAMES = [kind for kind, _, _ in KINDS]
ALL_CHECKS = [
    "chain",
    "commitment",
    "shuffles",
    "keys",
    "receipts",
    "tree_head",
    "inclusion",
    "entries",
]


@dataclass
class Played:
    """A finished game as its players and a monitor saw it."""

    id: str
    export: bytes = b""
    receipts: list[dict[str, Any]] = field(default_factory=list)
    """Every answer's `receipt` field, in order."""
    headers: list[str] = field(default_factory=list)
    """Every answer's Danger-Receipt header, in order."""
    proof: dict[str, Any] = field(default_factory=dict)
    """GET /v1/log/proof/{game} once its final head was logged, with its head."""
    proof_at_last: dict[str, Any] = field(default_factory=dict)
    """GET /v1/log/proof/{game}?size= the last head's size."""


@dataclass
class Live:
    keys: dict[str, Any]
    games: dict[str, Played]
    older: dict[str, Any]
    """The head that first held the first game's final head."""
    last: dict[str, Any]
    """The latest head, once every game's final head was logged."""
    consistency: dict[str, Any]
    """GET /v1/log/consistency from `older` to `last`."""
    pages: list[dict[str, Any]]
    """GET /v1/log/entries's answers: every leaf of `last`'s tree."""


def kept(answer: Any, played: Played) -> None:
    """The receipt an appending answer carries, in its body and its header alike."""
    assert answer.is_success, answer.text
    header = answer.headers["Danger-Receipt"]
    receipt = answer.json()["receipt"]
    assert json.loads(header) == receipt
    played.receipts.append(receipt)
    played.headers.append(header)


async def final_proof(client: Any, game_id: str) -> dict[str, Any] | None:
    r = await client.get(f"/v1/log/proof/{game_id}")
    if r.status_code != 200 or not r.json()["leaf"]["final"]:
        return None
    return r.json()


async def play(client: Any, kind: str, seats: int, options: dict[str, Any]) -> Played:
    """A game played to its end through the API, every receipt kept; its final head
    logged."""
    r = await client.post("/v1/games", json={"game": kind, "seats": seats, "options": options})
    played, admin = Played(r.json()["id"]), r.json()["admin_token"]
    kept(r, played)
    tokens = []
    for n in range(seats):
        r = await client.post(f"/v1/games/{played.id}/players", json={"name": f"p{n}"})
        kept(r, played)
        tokens.append(r.json()["token"])
    r = await client.post(f"/v1/games/{played.id}/start", headers=bearer(admin))
    kept(r, played)
    choose = random.Random(kind).choice
    while (await client.get(f"/v1/games/{played.id}")).json()["status"] != "finished":
        for token in tokens:
            legal = (await client.get(f"/v1/games/{played.id}", headers=bearer(token))).json()
            if legal["legal"]:
                r = await client.post(
                    f"/v1/games/{played.id}/commands",
                    json=choose(legal["legal"]),
                    headers=bearer(token),
                )
                kept(r, played)
                break
        else:
            raise AssertionError("while the game runs, some seat has a legal command")
    played.export = (await client.get(f"/v1/games/{played.id}/export")).content
    played.proof = await wait_for(lambda: final_proof(client, played.id))
    return played


async def entries(client: Any, size: int) -> list[dict[str, Any]]:
    """Every leaf of the tree of `size` leaves, as a monitor fetches them: two pages at
    least, none over 1,000 leaves."""
    step = min(1000, max(1, (size + 1) // 2))
    pages = []
    for start in range(0, size, step):
        r = await client.get(f"/v1/log/entries?start={start}&end={min(size, start + step)}")
        assert r.status_code == 200, r.text
        pages.append(r.json())
    return pages


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A store of the module's own: its log holds these games alone (the session's holds
    every running game the suite has left, which a writer that checkpoints at once would
    first take, a thousand a batch)."""
    from service.infra.embedded import EmbeddedValkey

    server = EmbeddedValkey(tmp_path_factory.mktemp("live-log"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
async def live(store: Any) -> AsyncIterator[Live]:
    async with AsyncTestClient(app=make_app(store, sandbox=True, **FAST)) as c:
        keys = (await c.get("/v1/keys")).json()
        games: dict[str, Played] = {}
        for kind, seats, options in KINDS:
            games[kind] = await play(c, kind, seats, options)
        last = (await c.get("/v1/log/head")).json()
        older = games[GAMES[0]].proof["head"]
        assert last["size"] > older["size"] > 0
        for played in games.values():
            r = await c.get(f"/v1/log/proof/{played.id}?size={last['size']}")
            assert r.status_code == 200, r.text
            played.proof_at_last = r.json()
        r = await c.get(f"/v1/log/consistency?first={older['size']}&second={last['size']}")
        assert r.status_code == 200, r.text
        yield Live(keys, games, older, last, r.json(), await entries(c, last["size"]))


def by_id(keys: dict[str, Any]) -> dict[str, str]:
    """The keys as the audit takes them: each public key by its id."""
    return {k["id"]: k["public_key"] for k in keys["keys"]}


def verified(live: Live, played: Played, export: bytes, **only: bool) -> Report:
    """The verifier's Python API on an export with the game's receipts, its inclusion proof
    (against the proof's own head) and the log's entries: those `only` does not turn off."""
    use = {"receipts": True, "proof": True, "entries": True} | only
    receipts = None
    if use["receipts"]:
        receipts = parse_receipts("\n".join(played.headers).encode())
    proof = None
    if use["proof"]:
        proof = parse_inclusion(json.loads(json.dumps(played.proof)))
        proof["head"] = parse_head(proof["head"])
    entries = parse_entries(json.dumps(live.pages).encode()) if use["entries"] else None
    keys = parse_keys(live.keys) if use["receipts"] or use["proof"] else None
    return verify_export(parse_export(export), keys, receipts, None, proof, entries)


def named(report: Any, name: str) -> Any:
    return next(c for c in report.checks if c.name == name)


def saved(tmp_path: Path, live: Live, played: Played) -> dict[str, str]:
    """What a player and a monitor keep, as files: the export, the receipts (the
    Danger-Receipt headers, one a line), the keys, the proofs, the last head, the entries
    (GET /v1/log/entries's answers, one a line) and a rewrite of the export."""
    files: dict[str, bytes] = {
        "game.jsonl": played.export,
        "forged.jsonl": renamed(played.export),
        "receipts.jsonl": "\n".join(played.headers).encode() + b"\n",
        "keys.json": json.dumps(live.keys).encode(),
        "proof.json": json.dumps(played.proof).encode(),
        "proof-last.json": json.dumps(played.proof_at_last).encode(),
        "head.json": json.dumps(live.last).encode(),
        "entries.jsonl": b"".join(json.dumps(p).encode() + b"\n" for p in live.pages),
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    return {name: str(tmp_path / name) for name in files}


def danger_verify(cwd: Path, *argv: str, script: bool = True) -> subprocess.CompletedProcess[str]:
    """The command line: the console script installed beside this Python, or
    `python -m danger_verify`."""
    installed = Path(sys.executable).with_name("danger-verify")
    command = [str(installed)] if script and installed.exists() else [sys.executable, "-m"]
    if command[-1] == "-m":
        command.append("danger_verify")
    return subprocess.run([*command, *argv], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("kind", GAMES)
async def test_a_live_game_passes_every_check_and_the_audit(live, kind, tmp_path):
    played = live.games[kind]
    report = verified(live, played, played.export)
    assert report.ok, report.explain()
    assert [c.name for c in report.checks] == ALL_CHECKS
    assert "every shuffle, deal and draw derived again" in named(report, "shuffles").detail
    assert len(played.receipts) > 4
    assert str(len(played.receipts)) in named(report, "receipts").detail
    entries = named(report, "entries").detail
    assert "its final head among them" in entries, entries
    assert "hash to the tree head's root" in entries, entries
    audit = audit_export(played.export, played.receipts, by_id(live.keys))
    assert audit.ok, [c for c in audit.checks if not c.ok]

    files = saved(tmp_path, live, played)
    anchors = ["--receipts", files["receipts.jsonl"], "--keys", files["keys.json"]]
    log = ["--proof", files["proof.json"], "--entries", files["entries.jsonl"]]
    run = danger_verify(tmp_path, files["game.jsonl"], *anchors, *log)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == f"Every check passed ({', '.join(ALL_CHECKS)})."
    # Against the latest head, with the proof asked at its size.
    at_last = ["--proof", files["proof-last.json"], "--head", files["head.json"]]
    run = danger_verify(tmp_path, files["game.jsonl"], "--keys", files["keys.json"], *at_last)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"size {live.last['size']}" in run.stdout and "pass  inclusion" in run.stdout


@pytest.mark.parametrize("kind", GAMES)
async def test_a_rewrite_with_recomputed_hashes_fails_the_receipts_and_the_log(
    live, kind, tmp_path
):
    played = live.games[kind]
    forged = renamed(played.export)
    final = played.proof["leaf"]["seq"]

    # The export's own checks pass it, as the audit's do.
    alone = verified(live, played, forged, receipts=False, proof=False, entries=False)
    assert alone.ok and [c.name for c in alone.checks] == ["chain", "commitment", "shuffles"]
    assert audit_export(forged).ok
    # What anchors the log outside the operator's reach does not.
    report = verified(live, played, forged)
    assert [c.name for c in report.checks if c.ok] == [
        "chain",
        "commitment",
        "shuffles",
        "keys",
        "tree_head",
    ]
    assert named(report, "receipts").seq == played.receipts[1]["seq"] == 2  # the first join
    assert named(report, "inclusion").seq == final
    logged = sorted(
        e["leaf"]["seq"]
        for page in live.pages
        for e in page["entries"]
        if e["leaf"]["game"] == played.id
    )
    assert named(report, "entries").seq == next(seq for seq in logged if seq >= 2)
    # The audit, given the same receipts, fails them at the same event.
    audit = audit_export(forged, played.receipts, by_id(live.keys))
    assert not audit.ok
    assert named(audit, "receipts").seq == named(report, "receipts").seq

    files = saved(tmp_path, live, played)
    keys = ["--keys", files["keys.json"]]
    run = danger_verify(tmp_path, files["forged.jsonl"], "--json", script=False)
    assert run.returncode == 0, run.stdout + run.stderr
    run = danger_verify(
        tmp_path,
        files["forged.jsonl"],
        "--receipts",
        files["receipts.jsonl"],
        *keys,
        "--proof",
        files["proof.json"],
        "--entries",
        files["entries.jsonl"],
        "--json",
        script=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    answer = json.loads(run.stdout)
    assert answer["first_failure"] == "receipts"
    assert {c["name"] for c in answer["checks"] if not c["ok"]} == {
        "receipts",
        "inclusion",
        "entries",
    }
    # Where the players kept nothing, a monitor's entries catch it alone.
    run = danger_verify(tmp_path, files["forged.jsonl"], "--entries", files["entries.jsonl"])
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAIL  entries" in run.stdout and "another history of this game" in run.stdout


async def test_a_monitor_checks_the_live_logs_consistency(live, tmp_path):
    keys = parse_keys(live.keys)
    proof = parse_consistency(live.consistency)
    older, last = parse_head(live.older), parse_head(live.last)
    report = verify_consistency(older, last, proof, keys)
    assert report.ok, report.explain()

    def write(name: str, content: Any) -> str:
        (tmp_path / name).write_text(json.dumps(content))
        return str(tmp_path / name)

    heads = [write("old.json", live.older), write("new.json", live.last)]
    keys_file = ["--keys", write("keys.json", live.keys)]
    run = danger_verify(tmp_path, "consistency", *heads, write("c.json", proof), *keys_file)
    assert run.returncode == 0, run.stdout + run.stderr
    for name in ("keys", "old_head", "new_head", "consistency"):
        assert f"pass  {name}" in run.stdout

    assert proof["path"]  # a tree of more leaves than the older one
    wrong = {**proof, "path": [("0" if h[0] != "0" else "1") + h[1:] for h in proof["path"]]}
    run = danger_verify(
        tmp_path, "consistency", *heads, write("wrong.json", wrong), *keys_file, "--json"
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert json.loads(run.stdout)["first_failure"] == "consistency"
    # The heads given the other way round: the log would have shrunk.
    run = danger_verify(
        tmp_path, "consistency", *reversed(heads), write("c.json", proof), *keys_file
    )
    assert run.returncode == 1 and "shrank" in run.stdout, run.stdout + run.stderr
