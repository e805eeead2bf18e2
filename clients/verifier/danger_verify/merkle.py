"""RFC 9162 (Certificate Transparency 2.0), section 2.1: the Merkle tree hash, and the
verification of inclusion proofs (2.1.3.2) and consistency proofs (2.1.4.2), with SHA-256.

- a leaf's hash is SHA-256(0x00 || leaf bytes); an inner node's SHA-256(0x01 || left ||
  right);
- the tree of n > 1 leaves splits at k, the largest power of two smaller than n;
- the empty tree's hash is SHA-256 of nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """MTH of the leaves, given their leaf hashes."""
    n = len(leaf_hashes)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return leaf_hashes[0]
    k = split(n)
    return node_hash(root(leaf_hashes[:k]), root(leaf_hashes[k:]))


def verify_inclusion(
    index: int, size: int, leaf: bytes, path: Sequence[bytes], root_hash: bytes
) -> bool:
    """RFC 9162, 2.1.3.2: `path` proves that the leaf hash `leaf` is leaf `index` of the tree
    of `size` leaves whose root is `root_hash`."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root_hash


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, path: Sequence[bytes]
) -> bool:
    """RFC 9162, 2.1.4.2: `path` proves that the tree of `second` leaves whose root is
    `second_root` holds, as its first `first` leaves, the tree whose root is `first_root`.
    Two trees of the same size are consistent when their roots are equal and the path is
    empty; every tree holds the empty tree (an empty path)."""
    if not 0 <= first <= second:
        return False
    if first == second:
        return not path and first_root == second_root
    if first == 0:
        return not path and first_root == EMPTY_ROOT
    if not path:
        return False
    nodes = list(path)
    if first & (first - 1) == 0:  # an exact power of two: the first tree is a node itself
        nodes.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = nodes[0]
    for c in nodes[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0
