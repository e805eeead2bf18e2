"""Keys, receipts and tree heads: Ed25519 signatures by keys made here, over the messages
docs/transparency.md defines."""

import json

import pytest
from danger_verify.chain import Export
from danger_verify.keys import key_id, parse_keys, signing_message
from danger_verify.receipts import first_receipt_failure, parse_receipts
from danger_verify.report import InputError
from danger_verify.tree_heads import first_head_failure, parse_head
from verifier_helpers import Signer, game_events, keys_document


def test_the_signed_messages_are_the_documents():
    receipt = {"game": "G", "seq": 7, "hash": "h", "at": "t", "key": "k", "signature": "s"}
    assert signing_message("receipt", receipt) == (
        b'danger-hall/receipt/v1\n{"at":"t","game":"G","hash":"h","key":"k","seq":7}'
    )
    head = {"origin": "o", "size": 2, "root": "r", "at": "t", "key": "k", "signature": "s"}
    assert signing_message("tree-head", head) == (
        b'danger-hall/tree-head/v1\n{"at":"t","key":"k","origin":"o","root":"r","size":2}'
    )


def test_a_key_id_is_its_own_or_the_key_is_not_used():
    signer, other = Signer(), Signer()
    assert key_id(signer.raw) == signer.id
    keys = parse_keys(keys_document(signer, other))
    assert keys.failure() is None and set(keys.usable) == {signer.id, other.id}

    forged = keys_document(signer, other)
    forged["keys"][1]["id"] = signer.id[:15] + "0" if signer.id[-1] != "0" else signer.id[:15] + "1"
    keys = parse_keys(forged)
    failure = keys.failure()
    assert failure is not None and "is not its own id" in failure.message
    assert set(keys.usable) == {signer.id}

    odd = keys_document(signer)
    odd["keys"][0]["algorithm"] = "rsa"
    assert "not an ed25519 key" in parse_keys(odd).failure().message
    with pytest.raises(InputError):
        parse_keys({"current": "x"})


def test_a_receipt_holds_against_the_export_only_as_signed():
    signer = Signer()
    events = game_events()
    export = Export(events)
    keys = parse_keys(keys_document(signer))
    good = [signer.receipt(events[3]), signer.receipt(events[-1])]
    failure, passed = first_receipt_failure(good, export, keys)
    assert failure is None and "2 receipt(s)" in passed

    changed = {**good[0], "hash": "0" * 64}  # the signature no longer covers it
    failure, _ = first_receipt_failure([changed], export, keys)
    assert failure is not None and failure.seq == 4 and "not valid" in failure.message

    stranger = Signer().receipt(events[3])
    failure, _ = first_receipt_failure([stranger], export, keys)
    assert failure is not None and "not listed" in failure.message

    other_history = game_events(seed=b"\x01" * 32)  # another log of the same game
    failure, _ = first_receipt_failure([signer.receipt(other_history[0])], export, keys)
    assert failure is not None and failure.seq == 1
    assert "the export's event 1 has" in failure.message

    failure, _ = first_receipt_failure(good, Export(events[:5]), keys)  # cut short
    assert failure is not None and failure.seq == len(events)
    assert "ends at event 5" in failure.message


def test_old_keys_keep_their_receipts_checkable():
    old, new = Signer(), Signer()
    events = game_events()
    keys = parse_keys(keys_document(old, new))
    receipts = [old.receipt(events[2]), new.receipt(events[5])]
    assert first_receipt_failure(receipts, Export(events), keys)[0] is None
    failure, _ = first_receipt_failure(receipts, Export(events), parse_keys(keys_document(new)))
    assert failure is not None and failure.seq == 3


def test_receipts_are_read_as_one_a_list_or_lines():
    signer = Signer()
    events = game_events()
    one, two = signer.receipt(events[0]), signer.receipt(events[1])
    assert parse_receipts(json.dumps(one).encode()) == [one]
    assert parse_receipts(json.dumps([one, two]).encode()) == [one, two]
    assert parse_receipts(f"{json.dumps(one)}\n\n{json.dumps(two)}\n".encode()) == [one, two]
    for bad in (b"", b"[]", b"{", b'{"game": "G"}', json.dumps({**one, "seq": "1"}).encode()):
        with pytest.raises(InputError):
            parse_receipts(bad)


def test_a_tree_head_is_signed_by_a_listed_key():
    signer = Signer()
    keys = parse_keys(keys_document(signer))
    head = parse_head(signer.head(5, b"\x07" * 32))
    assert first_head_failure(head, keys, "the head") is None
    assert first_head_failure({**head, "size": 6}, keys, "the head") is not None
    assert first_head_failure(Signer().head(5, b"\x07" * 32), keys, "the head") is not None
    with pytest.raises(InputError):
        parse_head({**head, "root": "ABC"})
    with pytest.raises(InputError):
        parse_head({**head, "size": "5"})
