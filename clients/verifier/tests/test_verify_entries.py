"""danger-verify --entries: a monitor's check of a game against the transparency log's
entries (GET /v1/log/entries), on a real finished game and a rewrite of it."""

import json
from pathlib import Path
from typing import Any

import pytest
from danger_verify.chain import parse_export
from danger_verify.cli import main
from danger_verify.entries import parse_entries
from danger_verify.verify import verify_export
from verifier_helpers import (
    Signer,
    Tree,
    canonical,
    jsonl,
    keys_document,
    leaf,
    real_export,
    real_game,
    score_rewritten,
)


def run(capsys, *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit:
        status = int(exit.code or 0)
    out = capsys.readouterr()
    return status, out.out + out.err


def report(capsys, *argv: str) -> tuple[int, dict[str, Any]]:
    status, out = run(capsys, *argv, "--json")
    return status, json.loads(out)


def entries_check(answer: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in answer["checks"] if c["name"] == "entries")


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return str(path)


def other(i: int) -> dict[str, Any]:
    return {"final": True, "game": f"other{i:07d}", "hash": f"{i:064x}", "seq": 9}


def log_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A log of 20 leaves: other games', and this game's checkpoints at a quarter and half
    of its events, and its final head, in that order."""
    leaves = [other(i) for i in range(20)]
    for index, event in zip(
        (3, 8, 15), (events[len(events) // 4], events[len(events) // 2], events[-1]), strict=True
    ):
        leaves[index] = leaf(event, final=event is events[-1])
    return leaves


def pages(leaves: list[dict[str, Any]], size: int = 7) -> list[dict[str, Any]]:
    """GET /v1/log/entries's answers, `size` leaves a page."""
    return [
        {"entries": [{"index": i, "leaf": leaves[i]} for i in range(a, min(a + size, len(leaves)))]}
        for a in range(0, len(leaves), size)
    ]


def test_every_leaf_of_the_game_is_an_event_of_the_export(capsys, tmp_path):
    events = real_game()
    game = write(tmp_path, "game.jsonl", real_export())
    answers = pages(log_of(events))
    for name, content in (
        ("one.json", pages(log_of(events), size=1000)[0]),
        ("list.json", answers),
        ("lines.jsonl", b"".join(canonical(p) + b"\n" for p in answers)),
        ("overlapping.json", [*answers, answers[1]]),
    ):
        status, out = run(capsys, game, "--entries", write(tmp_path, name, content))
        assert status == 0, out  # entries need no keys: they are checked against the export
        assert "pass  entries" in out and "3 of the 20 leaves (indices 0 to 19)" in out, out
        assert "its final head among them" in out

    # Only a checkpoint kept: it holds the history up to its seq.
    status, out = run(capsys, game, "--entries", write(tmp_path, "p0.json", answers[0]))
    assert status == 0 and "1 of the 7 leaves" in out and "final head" not in out, out


def test_a_rewrite_is_caught_by_the_entries_where_no_one_kept_a_receipt(capsys, tmp_path):
    events = real_game()
    forged_events, changed = score_rewritten(events)
    forged = write(tmp_path, "forged.jsonl", jsonl(forged_events))
    leaves = log_of(events)
    entries = write(tmp_path, "entries.json", pages(leaves))

    assert run(capsys, forged)[0] == 0  # its own checks pass
    status, answer = report(capsys, forged, "--entries", entries)
    assert status == 1 and answer["first_failure"] == "entries"
    # The checkpoints before the change hold; the final head does not.
    assert events[len(events) // 2]["seq"] < changed
    check = entries_check(answer)
    assert check["seq"] == events[-1]["seq"] and "leaf 15 holds hash" in check["detail"]
    assert "another history of this game" in answer["explanation"]

    # A checkpoint after the change catches it there.
    leaves[8] = leaf(events[changed], final=False)
    _, answer = report(capsys, forged, "--entries", write(tmp_path, "e2.json", pages(leaves)))
    assert entries_check(answer)["seq"] == changed + 1

    # Cut short: the log holds an event the export does not have.
    cut = write(tmp_path, "cut.jsonl", jsonl(events[:-1]))
    _, answer = report(capsys, cut, "--entries", entries)
    assert "does not have" in entries_check(answer)["detail"]

    # A final leaf is the export's last event.
    early_final = log_of(events)
    early_final[8] = {**early_final[8], "final": True}
    game = write(tmp_path, "game.jsonl", real_export())
    _, answer = report(capsys, game, "--entries", write(tmp_path, "e3.json", pages(early_final)))
    assert "final head" in entries_check(answer)["detail"]

    # A game's leaves come in the order of its seqs.
    swapped = log_of(events)
    swapped[3], swapped[8] = swapped[8], swapped[3]
    _, answer = report(capsys, game, "--entries", write(tmp_path, "e4.json", pages(swapped)))
    assert "not in the order of its seqs" in entries_check(answer)["detail"]

    # Entries naming other games only check nothing, and say so.
    status, answer = report(
        capsys, game, "--entries", write(tmp_path, "e5.json", pages([other(i) for i in range(5)]))
    )
    assert status == 1 and "nothing to check it by" in entries_check(answer)["detail"]


def test_entries_holding_a_heads_whole_tree_are_checked_against_its_root(capsys, tmp_path):
    events = real_game()
    signer = Signer()
    keys = write(tmp_path, "keys.json", keys_document(signer))
    leaves = log_of(events)
    tree = Tree([canonical(x) for x in leaves])
    head = write(tmp_path, "head.json", signer.head(16, tree.root(16)))
    game = write(tmp_path, "game.jsonl", real_export())

    entries = write(tmp_path, "entries.json", pages(leaves))
    status, out = run(capsys, game, "--entries", entries, "--head", head, "--keys", keys)
    assert status == 0 and "the first 16 hash to the tree head's root" in out, out

    # A leaf of another game changed: this game's leaves hold, the tree does not.
    changed = [*leaves]
    changed[0] = other(99)
    altered = write(tmp_path, "altered.json", pages(changed))
    status, answer = report(capsys, game, "--entries", altered, "--head", head, "--keys", keys)
    assert status == 1 and "not the log the head signs" in entries_check(answer)["detail"]

    # Fewer leaves than the head's tree: checked against the export alone.
    some = write(tmp_path, "some.json", pages(leaves[:10]))
    status, out = run(capsys, game, "--entries", some, "--head", head, "--keys", keys)
    assert status == 0 and "do not hold all 16 leaves" in out, out

    # Through the Python API, the same.
    found = verify_export(
        parse_export(real_export()), entries=parse_entries(json.dumps(pages(leaves)).encode())
    )
    assert found.ok and found.checks[-1].name == "entries"


@pytest.mark.parametrize(
    "content",
    [
        b"{",
        b"[]",
        json.dumps({"entries": {}}).encode(),
        json.dumps({"entries": [{"index": -1, "leaf": other(1)}]}).encode(),
        json.dumps({"entries": [{"index": 1, "leaf": {**other(1), "seq": "9"}}]}).encode(),
        json.dumps(
            [{"entries": [{"index": 1, "leaf": other(1)}]}, {"index": 1, "leaf": other(2)}]
        ).encode(),
    ],
)
def test_unusable_entries_exit_2(capsys, tmp_path, content):
    game = write(tmp_path, "game.jsonl", real_export())
    status, out = run(capsys, game, "--entries", write(tmp_path, "bad.json", content))
    assert status == 2 and "unusable input" in out, out
