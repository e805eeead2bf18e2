"""The compiled build (docs/performance.md, "Compiled rules"): a module whose source changed
after its extension was built is refused, never run as it was; and CI, which has a C
compiler, tests the compiled build (`make test-pure` tests the Python modules)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import domain.kernel.table
from service.infra import compiled


def _tree(root: Path, newer: str) -> None:
    for package in compiled.PACKAGES:
        (root / package).mkdir()
    source = root / "domain" / "rules.py"
    built = root / "domain" / f"rules{EXTENSION_SUFFIXES[0]}"
    source.write_text("")
    built.write_bytes(b"")
    older, newest = (built, source) if newer == "source" else (source, built)
    os.utime(older, (1_000_000, 1_000_000))
    os.utime(newest, (2_000_000, 2_000_000))


def test_a_source_edited_after_its_build_is_named(tmp_path: Path) -> None:
    _tree(tmp_path, newer="source")
    assert compiled.stale(tmp_path) == ["domain/rules.py"]


def test_a_build_newer_than_its_source_runs(tmp_path: Path) -> None:
    _tree(tmp_path, newer="build")
    assert compiled.stale(tmp_path) == []


def test_the_service_starts_on_this_checkout() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli.main", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(
    not (os.environ.get("CI") and shutil.which("cc")), reason="CI with a C compiler only"
)
def test_ci_tests_the_compiled_rules() -> None:
    assert not (domain.kernel.table.__file__ or "").endswith(".py")
