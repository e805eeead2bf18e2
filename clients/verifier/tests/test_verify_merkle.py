"""RFC 9162 tree hashing and proofs: known vectors, and every proof of trees of 1 to 64
leaves, as the RFC's own recursive definitions give them (verifier_helpers.Tree)."""

import hashlib

import pytest
from danger_verify import merkle
from verifier_helpers import Tree

# The tree of Certificate Transparency's reference tests (RFC 6962's implementation): eight
# leaves, and the root of each of its first n leaves.
LEAVES = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    bytes(range(0x50, 0x58)),
    bytes(range(0x60, 0x70)),
]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# (index, size, path) of the same reference tests.
INCLUSION = [
    (0, 1, []),
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
]
# (first, second, proof) of the same reference tests.
CONSISTENCY = [
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]

SIZES = range(1, 65)
BIG = Tree([f"leaf {i}".encode() for i in range(64)])


def hashes(path: list[str]) -> list[bytes]:
    return [bytes.fromhex(h) for h in path]


def flipped(path: list[bytes], at: int) -> list[bytes]:
    changed = bytearray(path[at])
    changed[at % 32] ^= 1
    return [*path[:at], bytes(changed), *path[at + 1 :]]


def test_the_leaf_and_node_hashes_are_rfc_9162s():
    assert merkle.leaf_hash(b"x") == hashlib.sha256(b"\x00x").digest()
    left, right = b"a" * 32, b"b" * 32
    assert merkle.node_hash(left, right) == hashlib.sha256(b"\x01" + left + right).digest()
    assert hashlib.sha256(b"").digest() == merkle.EMPTY_ROOT


@pytest.mark.parametrize("n", range(9))
def test_the_reference_roots(n):
    assert merkle.root([merkle.leaf_hash(x) for x in LEAVES[:n]]).hex() == ROOTS[n]


def test_the_reference_proofs():
    leaf_hashes = [merkle.leaf_hash(x) for x in LEAVES]
    reference = Tree(LEAVES)
    for index, size, path in INCLUSION:
        assert reference.path(index, size) == hashes(path)
        root = bytes.fromhex(ROOTS[size])
        assert merkle.verify_inclusion(index, size, leaf_hashes[index], hashes(path), root)
    for first, second, proof in CONSISTENCY:
        if first < second:
            assert reference.proof(first, second) == hashes(proof)
        old, new = bytes.fromhex(ROOTS[first]), bytes.fromhex(ROOTS[second])
        assert merkle.verify_consistency(first, second, old, new, hashes(proof))


def test_every_root_of_up_to_64_leaves_is_the_rfcs():
    leaf_hashes = [merkle.leaf_hash(x) for x in BIG.leaves]
    for n in range(65):
        assert merkle.root(leaf_hashes[:n]) == BIG.root(n)


@pytest.mark.parametrize("size", SIZES)
def test_every_inclusion_proof_holds_and_every_changed_one_fails(size):
    root = BIG.root(size)
    for index in range(size):
        leaf = merkle.leaf_hash(BIG.leaves[index])
        path = BIG.path(index, size)
        assert merkle.verify_inclusion(index, size, leaf, path, root), (index, size)
        for at in range(len(path)):
            assert not merkle.verify_inclusion(index, size, leaf, flipped(path, at), root)
        assert not merkle.verify_inclusion(index, size, leaf, [*path, root], root)
        if path:
            assert not merkle.verify_inclusion(index, size, leaf, path[:-1], root)
        other = merkle.leaf_hash(b"another leaf")
        assert not merkle.verify_inclusion(index, size, other, path, root)
        for wrong in {index - 1, index + 1, size} - {-1, index}:
            assert not merkle.verify_inclusion(wrong, size, leaf, path, root)
        if size < 64:  # the path of the smaller tree proves nothing of the larger one
            assert not merkle.verify_inclusion(index, size + 1, leaf, path, BIG.root(size + 1))
        assert not merkle.verify_inclusion(index, size, leaf, path, BIG.root(size - 1))


@pytest.mark.parametrize("second", SIZES)
def test_every_consistency_proof_holds_and_every_changed_one_fails(second):
    new = BIG.root(second)
    assert merkle.verify_consistency(second, second, new, new, [])
    assert not merkle.verify_consistency(second, second, new, BIG.root(second - 1), [])
    assert merkle.verify_consistency(0, second, merkle.EMPTY_ROOT, new, [])
    for first in range(1, second):
        old = BIG.root(first)
        proof = BIG.proof(first, second)
        assert merkle.verify_consistency(first, second, old, new, proof), (first, second)
        assert not merkle.verify_consistency(first, second, old, new, [])
        for at in range(len(proof)):
            assert not merkle.verify_consistency(first, second, old, new, flipped(proof, at))
        assert not merkle.verify_consistency(first, second, old, new, [*proof, new])
        assert not merkle.verify_consistency(first, second, old, new, proof[:-1])
        assert not merkle.verify_consistency(first, second, BIG.root(first - 1), new, proof)
        assert not merkle.verify_consistency(first, second, old, BIG.root(second - 1), proof)
        assert not merkle.verify_consistency(second, first, new, old, proof)
        if second < 64:
            wider = BIG.root(second + 1)
            assert not merkle.verify_consistency(first, second + 1, old, wider, proof)
