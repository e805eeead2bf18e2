"""clients/verifier (danger-verify) against the service's own audit, on finished games of
every kind played by the simulation (tests/exports.py) and on tampered copies of them:

- a card changed in one event, the chain left broken: both fail it, at that event;
- a score changed and every hash after it computed again: the chain holds, so both chain
  checks pass. The audit still fails it (it decides every command again and recounts the
  score); the verifier does not replay the rules, and catches it only by what anchors the
  log outside the operator's reach: a receipt the service signed over the original hash, or
  the transparency log's inclusion proof of the original final head (docs/transparency.md),
  both made here with a key made here.

Then the package is installed into a fresh virtual environment, on its own, and its
console script run on an export there."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from danger_verify.chain import parse_export
from danger_verify.keys import parse_keys
from danger_verify.report import Report
from danger_verify.verify import verify_export

from events.audit import audit_export
from tests.exports import KINDS, simulated_export

ROOT = Path(__file__).resolve().parents[1]


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def events_of(export: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export.splitlines()]


def export_of(events: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(e, separators=(",", ":")).encode() + b"\n" for e in events)


def with_card_changed(export: bytes) -> tuple[bytes, int]:
    """The export with the first card an event names changed to another card of the game,
    and nothing else: the chain breaks there."""
    events = events_of(export)
    event = next(e for e in events if "card" in e["data"] and e["data"]["card"] is not None)
    card = event["data"]["card"]
    event["data"]["card"] = next(
        e["data"]["card"]
        for e in events
        if type(e["data"].get("card")) is type(card) and e["data"]["card"] != card
    )
    return export_of(events), event["seq"]


def _bump_first_number(value: Any) -> bool:
    """Add 1 to the first integer (not a bool) found in `value`, depth first."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if type(item) is int:
            value[key] = item + 1
            return True
        if isinstance(item, dict | list) and _bump_first_number(item):
            return True
    return False


def with_score_rewritten(export: bytes) -> tuple[bytes, int]:
    """The export with a seat's score in the last round's scoring changed (its totals, or
    Danger Danger's tokens, or Danger 13's won cards) and every `prev` and
    `hash` after it computed again (docs/events.md): the chain holds."""
    events = events_of(export)
    scored = [e for e in events if e["type"] == "round_scored"][-1]
    score = next(k for k in ("totals", "tokens", "won_counts") if k in scored["data"])
    assert _bump_first_number(scored["data"][score])
    prev = events[scored["seq"] - 2]["hash"]
    for event in events[scored["seq"] - 1 :]:
        event["prev"] = prev
        event["hash"] = hashlib.sha256(
            canonical({k: v for k, v in event.items() if k != "hash"})
        ).hexdigest()
        prev = event["hash"]
    return export_of(events), scored["seq"]


class ServiceKey:
    """An Ed25519 key of the service's, made here: it signs as docs/transparency.md says."""

    def __init__(self) -> None:
        self.private = Ed25519PrivateKey.generate()
        self.raw = self.private.public_key().public_bytes_raw()
        self.id = hashlib.sha256(self.raw).hexdigest()[:16]

    def keys(self) -> dict[str, Any]:
        """The answer of GET /v1/keys."""
        listed = {
            "id": self.id,
            "algorithm": "ed25519",
            "public_key": self.raw.hex(),
            "added": "2026-12-06T16:00:00.000Z",
        }
        return {"current": self.id, "keys": [listed]}

    def sign(self, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        body = {**fields, "key": self.id}
        message = f"danger-hall/{kind}/v1\n".encode() + canonical(body)
        return {**body, "signature": self.private.sign(message).hex()}


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 9162's MTH over leaf bytes, by its recursive definition."""
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + _mth(leaves[:k]) + _mth(leaves[k:])).digest()


def _path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 9162's PATH(m, D[n])."""
    if len(leaves) == 1:
        return []
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    if m < k:
        return [*_path(m, leaves[:k]), _mth(leaves[k:])]
    return [*_path(m - k, leaves[k:]), _mth(leaves[:k])]


def inclusion_proof(key: ServiceKey, final: dict[str, Any]) -> dict[str, Any]:
    """The answer of GET /v1/log/proof/{game} in a log of 7 leaves whose leaf 4 is the
    game's final head (the others other games'), with its signed head."""
    leaves = [
        canonical({"final": True, "game": f"other{i:07d}", "hash": "ab" * 32, "seq": 9 + i})
        for i in range(7)
    ]
    index = 4
    leaf = {"final": True, "game": final["game"], "hash": final["hash"], "seq": final["seq"]}
    leaves[index] = canonical(leaf)
    head = key.sign(
        "tree-head",
        {
            "origin": "danger-hall",
            "size": 7,
            "root": _mth(leaves).hex(),
            "at": "2026-12-06T17:00:00.000Z",
        },
    )
    path = [h.hex() for h in _path(index, leaves)]
    return {"index": index, "size": 7, "leaf": leaf, "path": path, "head": head}


def verified(export: bytes, **anchors: Any) -> Report:
    return verify_export(parse_export(export), **anchors)


def named(report: Any, name: str) -> Any:
    return next(c for c in report.checks if c.name == name)


GAMES = [game for game, _ in KINDS] + ["danger-danger, timed"]


@pytest.fixture(scope="module")
def corpus() -> dict[str, bytes]:
    """A finished game's export of every kind, and one whose round timer rang."""
    games = {game: simulated_export(game, seats) for game, seats in KINDS}
    games["danger-danger, timed"] = simulated_export("danger-danger", 4, 0, {"round_seconds": 5})
    assert b'"fire_timer"' in games["danger-danger, timed"]
    return games


@pytest.mark.parametrize("game", GAMES)
def test_the_verifier_agrees_with_the_audit(corpus, game):
    original = corpus[game]
    key = ServiceKey()
    keys = parse_keys(key.keys())
    events = events_of(original)
    final = events[-1]
    receipts = [
        key.sign("receipt", {"game": e["game"], "seq": e["seq"], "hash": e["hash"], "at": e["at"]})
        for e in (events[len(events) // 2], final)
    ]
    proof = inclusion_proof(key, final)

    audit, mine = audit_export(original), verified(original)
    assert audit.ok and mine.ok, mine.explain()
    anchored = verified(original, keys=keys, receipts=receipts, proof=proof)
    assert anchored.ok, anchored.explain()
    assert [c.name for c in anchored.checks] == [
        "chain",
        "commitment",
        "shuffles",
        "keys",
        "receipts",
        "tree_head",
        "inclusion",
    ]

    broken, seq = with_card_changed(original)
    audit, mine = audit_export(broken), verified(broken)
    assert not audit.ok and not mine.ok
    assert named(audit, "hash_chain").seq == named(mine, "chain").seq == seq
    assert mine.first_failure is not None and mine.first_failure.name == "chain"

    rewritten, seq = with_score_rewritten(original)
    audit, mine = audit_export(rewritten), verified(rewritten)
    # The rewrite passes both chain checks, and the seed still matches its commitment.
    assert named(audit, "hash_chain").ok and named(mine, "chain").ok
    assert named(audit, "seed_commitment").ok and named(mine, "commitment").ok
    # The audit recounts the score; the verifier, which does not replay the rules, passes it
    # on the export alone ...
    assert not audit.ok and named(audit, "scores").seq == seq
    assert mine.ok
    # ... and catches it by a receipt over the original hash, or by the log's proof.
    with_receipts = verified(rewritten, keys=keys, receipts=receipts)
    assert not with_receipts.ok and with_receipts.first_failure is not None
    assert with_receipts.first_failure.name == "receipts"
    assert with_receipts.first_failure.seq == final["seq"]
    with_proof = verified(rewritten, keys=keys, proof=proof)
    assert not with_proof.ok and with_proof.first_failure is not None
    assert with_proof.first_failure.name == "inclusion"
    assert named(with_proof, "tree_head").ok


def test_the_verifiers_own_real_games_are_what_the_service_plays():
    """clients/verifier/tests/data holds real finished games (its tests need nothing of the
    service); they are what data/regenerate.py writes from tests/exports.py now."""
    data = ROOT / "clients" / "verifier" / "tests" / "data"
    spec = importlib.util.spec_from_file_location("regenerate", data / "regenerate.py")
    assert spec is not None and spec.loader is not None
    regenerate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regenerate)
    written = regenerate.exports()
    assert sorted(written) == sorted(p.name for p in data.glob("*.jsonl.gz"))
    for name, content in written.items():
        kept = gzip.decompress((data / name).read_bytes())
        assert kept == gzip.decompress(content), f"{name}: run data/regenerate.py"
        assert audit_export(kept).ok and verified(kept).ok


def _last_line(text: str) -> str:
    return (text.strip().splitlines() or ["(nothing)"])[-1]


def _install(venv: Path, tmp: Path) -> str | None:
    """danger-verify installed into `venv`, made without pip: this process's pip installs
    into it (`--python`). None, or why it could not be.

    Where pip reaches no index: `--no-index`, with the wheels of the pip cache, or those
    `pip download` still finds, of cryptography and of setuptools (the package's build)."""
    target = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    quiet = ["--quiet", "--disable-pip-version-check"]
    # A copy: a build writes into the tree it builds (build/, *.egg-info).
    package = str(tmp / "danger-verify")
    shutil.copytree(
        ROOT / "clients" / "verifier",
        package,
        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*", "tests"),
    )
    first = subprocess.run(
        [*target, "install", *quiet, package], capture_output=True, text=True, timeout=240
    )
    if first.returncode == 0:
        return None
    wheels = tmp / "wheels"
    wheels.mkdir()
    here = [sys.executable, "-m", "pip"]
    cache = subprocess.run([*here, "cache", "dir"], capture_output=True, text=True).stdout.strip()
    for found in Path(cache).rglob("*.whl") if cache else []:
        (wheels / found.name).write_bytes(found.read_bytes())
    if not list(wheels.glob("cryptography-*.whl")) or not list(wheels.glob("setuptools-*.whl")):
        subprocess.run(
            [*here, "download", *quiet, "-d", str(wheels), "cryptography>=43", "setuptools>=68"],
            capture_output=True,
            timeout=240,
        )
    second = subprocess.run(
        [*target, "install", *quiet, "--no-index", "--find-links", str(wheels), package],
        capture_output=True,
        text=True,
        timeout=240,
    )
    if second.returncode == 0:
        return None
    return (
        "danger-verify cannot be installed into a fresh venv here: pip install "
        f"./clients/verifier failed ({_last_line(first.stderr)}), and so did --no-index with "
        f"the wheels of the pip cache ({cache or 'none'}) and pip download "
        f"({_last_line(second.stderr)})"
    )


def test_the_package_installs_alone_and_its_script_runs(corpus, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    refused = _install(venv, tmp_path)
    if refused is not None:
        pytest.skip(refused)
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "list",
            "--format=json",
            "--disable-pip-version-check",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    installed = {p["name"].lower() for p in json.loads(listed.stdout)}
    assert installed <= {"danger-verify", "cryptography", "cffi", "pycparser", "pip"}, installed

    key = ServiceKey()
    original = corpus["danger"]
    rewritten, _ = with_score_rewritten(original)
    final = events_of(original)[-1]
    receipt = key.sign(
        "receipt",
        {"game": final["game"], "seq": final["seq"], "hash": final["hash"], "at": final["at"]},
    )
    files = {
        "game.jsonl": original,
        "forged.jsonl": rewritten,
        "receipt.json": canonical(receipt),
        "keys.json": canonical(key.keys()),
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    script = str(venv / "bin" / "danger-verify")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [script, *argv], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
        )

    anchors = ("--receipts", "receipt.json", "--keys", "keys.json")
    passed = run("game.jsonl", *anchors)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "pass  receipts" in passed.stdout
    failed = run("forged.jsonl", *anchors, "--json")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    report = json.loads(failed.stdout)
    assert report["first_failure"] == "receipts" and not report["ok"]
    assert run("absent.jsonl").returncode == 2
