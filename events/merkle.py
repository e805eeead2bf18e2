"""The transparency log's Merkle tree, hashed as RFC 9162 (section 2.1) hashes it, and its
proofs, over a tree stored as its perfect subtrees.

Every hash an RFC 9162 proof holds is the hash of a range of leaves [a, b) that the tree's
recursion reaches: a range that splits at the largest power of two below its length, down
to perfect subtrees (2^level leaves from an index aligned to them). The store keeps every
perfect subtree's hash, `(level, index)` (service/play/transparency_log.py), so any such
hash is a handful of them: `parts` names which, `range_hash` combines them. A proof is
then a list of ranges (`inclusion_ranges`, `consistency_ranges`), computed here without
the store.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

Node = tuple[int, int]
"""A perfect subtree: (level, index), the leaves [index * 2^level, (index + 1) * 2^level)."""

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def parts(a: int, b: int) -> list[Node]:
    """The perfect subtrees whose hashes make the hash of the leaves [a, b), as the RFC's
    recursion splits that range."""
    n = b - a
    if n & (n - 1) == 0 and a % n == 0:
        return [(n.bit_length() - 1, a // n)]
    k = split(n)
    return parts(a, a + k) + parts(a + k, b)


def range_hash(a: int, b: int, node: Callable[[Node], bytes]) -> bytes:
    """The hash of the leaves [a, b), from the hashes of its perfect subtrees."""
    if b == a:
        return EMPTY_ROOT
    n = b - a
    if n & (n - 1) == 0 and a % n == 0:
        return node((n.bit_length() - 1, a // n))
    k = split(n)
    return node_hash(range_hash(a, a + k, node), range_hash(a + k, b, node))


def inclusion_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The ranges whose hashes are the audit path of leaf m in the tree of n leaves, leaf
    side first (RFC 9162, 2.1.3.1)."""
    out: list[tuple[int, int]] = []
    a, b = 0, n
    while b - a > 1:
        k = split(b - a)
        if m < a + k:
            out.append((a + k, b))
            b = a + k
        else:
            out.append((a, a + k))
            a = a + k
    return out[::-1]


def consistency_ranges(m: int, n: int) -> list[tuple[int, int]]:
    """The ranges whose hashes are the consistency proof from the tree of m leaves to the
    tree of n leaves, 0 < m <= n (RFC 9162, 2.1.4.1)."""
    out: list[tuple[int, int]] = []
    a, b, whole = 0, n, True
    while m != b - a:
        k = split(b - a)
        if m <= k:
            out.append((a + k, b))
            b = a + k
        else:
            out.append((a, a + k))
            m -= k
            a, whole = a + k, False
    if not whole:
        out.append((a, b))
    return out[::-1]


def needed(ranges: Iterable[tuple[int, int]]) -> list[Node]:
    """Every perfect subtree the hashes of `ranges` are made of, once each."""
    return list(dict.fromkeys(p for a, b in ranges if b > a for p in parts(a, b)))


def appended(size: int, leaves: list[bytes], node: Callable[[Node], bytes]) -> dict[Node, bytes]:
    """The perfect subtrees that appending `leaves` (their hashes) to a tree of `size` leaves
    completes: each new leaf, and each subtree it closes. `node` gives the hashes of the tree
    before (only its frontier, `parts(0, size)`, is asked)."""
    made: dict[Node, bytes] = {}

    def known(at: Node) -> bytes:
        return made[at] if at in made else node(at)

    for offset, digest in enumerate(leaves):
        index, level = size + offset, 0
        made[(0, index)] = digest
        while index & 1:
            made[(level + 1, index >> 1)] = node_hash(
                known((level, index - 1)), made[(level, index)]
            )
            index >>= 1
            level += 1
    return made
