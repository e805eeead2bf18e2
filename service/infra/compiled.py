"""The compiled build's guard: the hot modules of the rules and the fold may run as C
extensions that Cython built beside their sources (`make run`, docs/performance.md,
"Compiled rules"), and Python imports such an extension before the `.py` beside it. One
built before its source last changed would run the old rules without a word, so a process
refuses to start on one (`danger ...`, and the test suite)."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "events", "service")
SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def extensions(root: Path = ROOT) -> list[tuple[Path, Path]]:
    """(extension, its source) for every module built beside its source."""
    found = []
    for package in PACKAGES:
        for built in (root / package).rglob("*.so"):
            for suffix in SUFFIXES:
                if built.name.endswith(suffix):
                    source = built.with_name(built.name.removesuffix(suffix) + ".py")
                    if source.exists():
                        found.append((built, source))
    return found


def stale(root: Path = ROOT) -> list[str]:
    """The sources changed since their extension was built (an edit, a checkout)."""
    return [
        str(source.relative_to(root))
        for built, source in extensions(root)
        if source.stat().st_mtime > built.stat().st_mtime
    ]


def check() -> None:
    """Refuse to run rules older than their source."""
    old = stale()
    if old:
        raise SystemExit(
            "These modules changed since they were compiled, and Python would run the old "
            f"build of them: {', '.join(old)}. Run `make compiled` (or `make run`) to build "
            "them again, or `make pure` to run the Python sources."
        )
