"""danger-verify on exports: what it prints, its JSON report and its exit status.

What must pass is a real finished game (data/, one of each kind, played by the service's
bots); what must fail may be the small hand-made log of verifier_helpers.game_events, whose
cards are not a real shuffle's."""

import json
from pathlib import Path
from typing import Any

import pytest
from danger_verify import shuffles
from danger_verify.cli import main
from danger_verify.report import Failure
from verifier_helpers import (
    REAL_GAMES,
    Signer,
    Tree,
    canonical,
    game_events,
    jsonl,
    keys_document,
    leaf,
    log_with,
    real_export,
    real_game,
    score_rewritten,
    seal,
)


def run(capsys, *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's refusals
        status = int(exit.code or 0)
    out = capsys.readouterr()
    return status, out.out + out.err


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content))
    return str(path)


def report(capsys, *argv: str) -> tuple[int, dict[str, Any]]:
    status, out = run(capsys, *argv, "--json")
    return status, json.loads(out)


def checks(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in answer["checks"]}


def rewritten(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log with a score changed and every hash after it computed again: its own
    checks cannot tell."""
    return score_rewritten(events)[0]


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_finished_games_export_passes(capsys, tmp_path, name):
    events = real_game(name)
    export = write(tmp_path, "game.jsonl", real_export(name))
    status, out = run(capsys, export)
    assert status == 0, out
    assert "pass  chain" in out and "pass  commitment" in out and "pass  shuffles" in out
    assert "every shuffle, deal and draw derived again from the seed" in out
    assert out.splitlines()[-1] == "Every check passed (chain, commitment, shuffles)."
    status, answer = report(capsys, export)
    assert status == 0 and answer["ok"] and answer["game"] == events[0]["game"]
    assert answer["events"] == len(events) and answer["first_failure"] is None
    assert [c["name"] for c in answer["checks"]] == ["chain", "commitment", "shuffles"]


def test_a_changed_event_breaks_the_chain_there(capsys, tmp_path):
    events = game_events()
    events[5]["data"]["card"] = "B9"
    status, out = run(capsys, write(tmp_path, "game.jsonl", jsonl(events)))
    assert status == 1
    assert "FAIL  chain" in out
    assert out.splitlines()[-1].startswith(
        "The chain check fails at event 6: hash does not match the event's canonical bytes;"
    )
    _, answer = report(capsys, write(tmp_path, "game.jsonl", jsonl(events)))
    assert checks(answer)["chain"]["seq"] == 6 and answer["first_failure"] == "chain"

    lines = jsonl(game_events()).splitlines()
    lines[3] = lines[3][:-9]  # a changed byte can break the JSON itself
    _, answer = report(capsys, write(tmp_path, "cut.jsonl", b"\n".join(lines)))
    chain = checks(answer)["chain"]
    assert not chain["ok"] and chain["seq"] == 4 and chain["detail"].startswith("line 4 ")

    missing = game_events()
    del missing[4]
    _, answer = report(capsys, write(tmp_path, "gap.jsonl", jsonl(missing)))
    assert checks(answer)["chain"]["seq"] == 5 and "missing" in checks(answer)["chain"]["detail"]


def test_a_seed_other_than_the_committed_one_fails(capsys, tmp_path):
    events = game_events()
    events[-1]["data"]["seed"] = "ab" * 32
    status, answer = report(capsys, write(tmp_path, "game.jsonl", jsonl(seal(events))))
    assert status == 1
    assert checks(answer)["chain"]["ok"]
    assert not checks(answer)["commitment"]["ok"] and checks(answer)["commitment"]["seq"] == 10


def test_a_running_games_export_passes_its_chain_but_not_the_rest(capsys, tmp_path):
    events = game_events(over=False)
    shuffled = next(e for e in events if e["type"] == "deck_shuffled")
    shuffled["data"]["order"], shuffled["salt"] = None, None  # as another reader sees it
    status, answer = report(capsys, write(tmp_path, "game.jsonl", jsonl(events)))
    assert status == 1
    chain = checks(answer)["chain"]
    assert chain["ok"] and "redacted" in chain["detail"]
    assert "not over" in checks(answer)["commitment"]["detail"]
    assert "not over" in checks(answer)["shuffles"]["detail"]

    finished = game_events()
    finished[4]["data"]["order"], finished[4]["salt"] = None, None  # over: nothing is excused
    _, answer = report(capsys, write(tmp_path, "over.jsonl", jsonl(finished)))
    assert checks(answer)["chain"]["seq"] == 5


def test_the_shuffles_check_is_the_modules(capsys, tmp_path, monkeypatch):
    seen: list[bytes] = []

    def fails(events, seed):
        seen.append(seed)
        return Failure(5, "the setup shuffle is not what the seed gives")

    monkeypatch.setattr(shuffles, "first_shuffle_failure", fails)
    status, answer = report(capsys, write(tmp_path, "game.jsonl", jsonl(game_events())))
    assert status == 1 and seen == [bytes(range(32))]
    assert checks(answer)["shuffles"] == {
        "name": "shuffles",
        "ok": False,
        "detail": "the setup shuffle is not what the seed gives",
        "seq": 5,
    }
    monkeypatch.undo()

    sandbox = game_events()
    sandbox[0]["data"]["verifiable"] = False
    _, answer = report(capsys, write(tmp_path, "sandbox.jsonl", jsonl(seal(sandbox))))
    assert "not verifiable" in checks(answer)["shuffles"]["detail"]


def test_receipts_catch_a_rewrite_the_chain_cannot(capsys, tmp_path):
    signer = Signer()
    keys = write(tmp_path, "keys.json", keys_document(signer))
    original = real_game()
    last = original[-1]["seq"]
    forgery, changed = score_rewritten(original)
    assert 4 < changed < last
    receipts = [signer.receipt(original[3]), signer.receipt(original[-1])]
    forged = write(tmp_path, "forged.jsonl", jsonl(forgery))

    status, answer = report(capsys, forged)
    assert status == 0, "a rewrite with every hash computed again passes the export's checks"
    assert [c["name"] for c in answer["checks"]] == ["chain", "commitment", "shuffles"]
    # A receipt fixes the history up to its seq: one from before the change still holds.
    early = write(tmp_path, "early.json", receipts[0])
    assert run(capsys, forged, "--receipts", early, "--keys", keys)[0] == 0

    for name, content in (
        ("one.json", json.dumps(receipts[1]).encode()),
        ("list.json", json.dumps(receipts).encode()),
        ("lines.jsonl", b"".join(canonical(r) + b"\n" for r in receipts)),
    ):
        path = write(tmp_path, name, content)
        status, out = run(capsys, forged, "--receipts", path, "--keys", keys)
        assert status == 1 and "FAIL  receipts" in out, out
        assert f"The receipts check fails at event {last}:" in out.splitlines()[-1]
        original_export = write(tmp_path, "game.jsonl", jsonl(original))
        status, out = run(capsys, original_export, "--receipts", path, "--keys", keys)
        assert status == 0 and "pass  receipts" in out, out

    other = Signer().receipt(original[-1])
    status, answer = report(
        capsys, forged, "--receipts", write(tmp_path, "x.json", other), "--keys", keys
    )
    assert status == 1 and "not listed" in checks(answer)["receipts"]["detail"]


def test_an_inclusion_proof_catches_a_rewrite_too(capsys, tmp_path):
    signer = Signer()
    keys = write(tmp_path, "keys.json", keys_document(signer))
    original = real_game()
    final = leaf(original[-1], final=True)
    tree: Tree = log_with(final, 5, 13)
    head = signer.head(13, tree.root(13))
    proof = {
        "index": 5,
        "size": 13,
        "leaf": final,
        "path": [h.hex() for h in tree.path(5, 13)],
        "head": head,
    }
    proof_file = write(tmp_path, "proof.json", proof)
    game = write(tmp_path, "game.jsonl", jsonl(original))

    status, out = run(capsys, game, "--proof", proof_file, "--keys", keys)
    assert status == 0, out
    assert "pass  tree_head" in out and "pass  inclusion" in out
    head_file = write(tmp_path, "head.json", head)
    no_head = write(tmp_path, "bare.json", {k: v for k, v in proof.items() if k != "head"})
    assert run(capsys, game, "--proof", no_head, "--head", head_file, "--keys", keys)[0] == 0
    assert run(capsys, game, "--proof", no_head, "--keys", keys)[0] == 2

    forged = write(tmp_path, "forged.jsonl", jsonl(rewritten(original)))
    status, answer = report(capsys, forged, "--proof", proof_file, "--keys", keys)
    assert status == 1 and answer["first_failure"] == "inclusion"
    assert checks(answer)["inclusion"]["seq"] == original[-1]["seq"]
    assert all(checks(answer)[name]["ok"] for name in ("chain", "commitment", "shuffles"))

    cut = write(tmp_path, "cut.jsonl", jsonl(original[:-1]))
    _, answer = report(capsys, cut, "--proof", proof_file, "--keys", keys)
    assert "does not have" in checks(answer)["inclusion"]["detail"]

    bigger = signer.head(14, log_with(final, 5, 14).root(14))
    _, answer = report(
        capsys,
        game,
        "--proof",
        proof_file,
        "--head",
        write(tmp_path, "h14.json", bigger),
        "--keys",
        keys,
    )
    assert (
        not checks(answer)["inclusion"]["ok"]
        and "13 leaves" in checks(answer)["inclusion"]["detail"]
    )

    wrong_path = {**proof, "path": list(reversed(proof["path"]))}
    _, answer = report(
        capsys, game, "--proof", write(tmp_path, "p2.json", wrong_path), "--keys", keys
    )
    assert "does not lead" in checks(answer)["inclusion"]["detail"]

    unsigned = {**proof, "head": Signer().head(13, tree.root(13))}
    status, answer = report(
        capsys, game, "--proof", write(tmp_path, "p3.json", unsigned), "--keys", keys
    )
    assert status == 1 and answer["first_failure"] == "tree_head"
    assert checks(answer)["inclusion"]["ok"]  # the path holds; the head is nobody's word


def test_a_monitor_checks_two_heads_and_their_consistency(capsys, tmp_path):
    signer = Signer()
    keys = write(tmp_path, "keys.json", keys_document(signer))
    tree = Tree([b"leaf %d" % i for i in range(20)])
    old = write(tmp_path, "old.json", signer.head(11, tree.root(11)))
    new = write(tmp_path, "new.json", signer.head(20, tree.root(20)))
    proof = write(
        tmp_path,
        "proof.json",
        {"first": 11, "second": 20, "path": [h.hex() for h in tree.proof(11, 20)]},
    )
    status, out = run(capsys, "consistency", old, new, proof, "--keys", keys)
    assert status == 0, out
    for name in ("keys", "old_head", "new_head", "consistency"):
        assert f"pass  {name}" in out

    fork = Tree([b"leaf %d" % i if i != 3 else b"rewritten" for i in range(20)])
    forked = write(tmp_path, "forked.json", signer.head(20, fork.root(20)))
    status, answer = report(capsys, "consistency", old, forked, proof, "--keys", keys)
    assert status == 1 and answer["first_failure"] == "consistency"
    assert "(a fork)" in answer["explanation"]

    shrunk = write(tmp_path, "shrunk.json", signer.head(5, tree.root(5)))
    _, answer = report(capsys, "consistency", old, shrunk, proof, "--keys", keys)
    assert "shrank" in checks(answer)["consistency"]["detail"]
    assert run(capsys, "consistency", old, new, proof)[0] == 2  # --keys is required


def test_unusable_input_exits_2(capsys, tmp_path):
    game = write(tmp_path, "game.jsonl", jsonl(game_events()))
    signer = Signer()
    receipt = write(tmp_path, "r.json", signer.receipt(game_events()[0]))
    keys = write(tmp_path, "keys.json", keys_document(signer))
    assert run(capsys, str(tmp_path / "absent.jsonl"))[0] == 2
    assert run(capsys, write(tmp_path, "empty.jsonl", b"\n\n"))[0] == 2
    status, out = run(capsys, game, "--receipts", receipt)
    assert status == 2 and "needs --keys" in out
    assert run(capsys, game, "--receipts", receipt, "--keys", write(tmp_path, "k", b"{"))[0] == 2
    assert run(capsys, game, "--receipts", write(tmp_path, "r2", b"[1]"), "--keys", keys)[0] == 2
    status, out = run(
        capsys, game, "--head", write(tmp_path, "h", {"size": 1}), "--keys", keys, "--json"
    )
    assert status == 2 and json.loads(out)["ok"] is False


@pytest.mark.parametrize("flag", ["--receipts", "--head", "--proof"])
def test_every_anchor_needs_the_keys(capsys, tmp_path, flag):
    game = write(tmp_path, "game.jsonl", jsonl(game_events()))
    assert run(capsys, game, flag, game)[0] == 2
