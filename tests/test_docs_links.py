"""The documentation points only at what a clone of the repository holds: every relative link
of its Markdown files reaches a file or folder inside the repository, and no path it names
leaves it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A path written as code: a way out of the repository, or an absolute one of some machine.
OUTSIDE = re.compile(r"`(\.\./[^`]*|/(?:work|home|root|tmp|Users)/[^`]*)`")


def markdown() -> list[Path]:
    skipped = {".venv", "node_modules", ".git", ".scratch", "build"}
    return sorted(
        path
        for path in ROOT.rglob("*.md")
        if not skipped.intersection(path.relative_to(ROOT).parts)
    )


def test_every_relative_link_and_named_path_stays_inside_the_repository() -> None:
    bad = []
    for path in markdown():
        text = path.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # an address elsewhere (https:, mailto:) or a place on this page
            reached = (path.parent / target.split("#")[0]).resolve()
            if not reached.is_relative_to(ROOT) or not reached.exists():
                bad.append(f"{path.relative_to(ROOT)}: ({target})")
        bad.extend(f"{path.relative_to(ROOT)}: `{named}`" for named in OUTSIDE.findall(text))
    assert markdown(), "no Markdown found"
    assert not bad, "\n".join(bad)
