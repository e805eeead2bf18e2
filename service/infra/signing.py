"""The service's Ed25519 signing key (docs/transparency.md, "Signing keys"): a PEM file in
the data directory, `signing/current.pem` (0600, made on the first start), or the file
DANGER_SIGNING_KEY names. `danger signing-key rotate` sets the current key aside as
`signing/retired-<id>.pem` and makes a new one; every key ever used stays listed at
`GET /v1/keys` (service/play/receipts.py)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.signatures import key_id

CURRENT = "current.pem"


class Signer:
    """Signs with one private key."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_key = raw.hex()
        self.key_id = key_id(raw)

    def sign(self, message: bytes) -> str:
        """The signature of `message`, in lowercase hex (about 50 us)."""
        return self._private.sign(message).hex()


def signing_dir(data_dir: Path) -> Path:
    return data_dir / "signing"


def load(data_dir: Path, key_file: Path | None = None) -> Signer:
    """The signer of `key_file` if given, else the data directory's current key, made now if
    there is none. Processes starting together make one key: the first to link its file in
    place wins, and the others read it."""
    if key_file is not None:
        return Signer(_read(key_file))
    folder = signing_dir(data_dir)
    path = folder / CURRENT
    if not path.exists():
        _make(folder, path)
    return Signer(_read(path))


def rotate(data_dir: Path) -> tuple[str | None, Signer]:
    """A new current key; the one before, if any, set aside (its id returned)."""
    folder = signing_dir(data_dir)
    path = folder / CURRENT
    old = None
    if path.exists():
        old = Signer(_read(path)).key_id
        os.replace(path, folder / f"retired-{old}.pem")
    _make(folder, path)
    return old, Signer(_read(path))


def _make(folder: Path, path: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    draft = folder / f".new-{os.getpid()}.pem"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(draft, path)  # never over a key another process made meanwhile
    except FileExistsError:
        pass
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(draft)


def _read(path: Path) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return key
