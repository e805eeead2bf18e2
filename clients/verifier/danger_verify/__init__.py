"""danger-verify: checks a Danger Hall game's export, its receipts and the transparency log's
proofs, with the standard library and `cryptography` alone (docs/transparency.md)."""

__version__ = "1.0.0"
