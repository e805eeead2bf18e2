"""The committed Python SDK (clients/python) is what the generator makes of the committed spec."""

from __future__ import annotations

import difflib
import importlib.util
import shutil
from importlib.metadata import version
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).parents[1]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_python", ROOT / "clients" / "generate_python.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def drift(committed: dict[str, bytes], fresh: dict[str, bytes]) -> list[str]:
    """What differs, one line a file, with the first lines of the first changed file's diff."""
    lines = [f"missing: {name}" for name in sorted(fresh.keys() - committed.keys())]
    lines += [f"not generated: {name}" for name in sorted(committed.keys() - fresh.keys())]
    changed = sorted(n for n in fresh.keys() & committed.keys() if fresh[n] != committed[n])
    lines += [f"changed: {name}" for name in changed]
    if changed:
        first = changed[0]
        diff = difflib.unified_diff(
            committed[first].decode(errors="replace").splitlines(),
            fresh[first].decode(errors="replace").splitlines(),
            f"committed/{first}",
            f"generated/{first}",
            lineterm="",
        )
        lines += list(diff)[:40]
    return lines


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generator's output for the committed spec, made once for the module."""
    out = tmp_path_factory.mktemp("sdk") / "out"
    generator().generate(out)
    return out


def test_the_committed_sdk_is_what_the_generator_makes_of_the_spec(fresh: Path) -> None:
    gen = generator()
    differences = drift(gen.owned(gen.TARGET), gen.owned(fresh))
    tools = f"openapi-python-client {version('openapi-python-client')}, ruff {version('ruff')}"
    assert not differences, (
        "clients/python is stale for openapi/openapi.json: run `make client` and commit it "
        f"(generated here with {tools})\n" + "\n".join(differences)
    )


def test_regenerating_keeps_the_hand_written_helpers_and_drops_stale_files(
    fresh: Path, tmp_path: Path
) -> None:
    gen = generator()
    sdk = tmp_path / "python"
    shutil.copytree(gen.TARGET, sdk, ignore=shutil.ignore_patterns(*gen.DEBRIS, "*.egg-info"))
    stale = sdk / "danger_hall_client" / "api" / "games" / "gone.py"
    stale.write_text("")
    before = {
        p.relative_to(sdk): p.read_bytes()
        for name in gen.HANDWRITTEN
        for p in [sdk / name, *(sdk / name).rglob("*")]
        if p.is_file()
    }
    assert before, "the hand-written helpers are in clients/python"
    gen.replace(sdk, shutil.copytree(fresh, tmp_path / "fresh"))
    after = {path: (sdk / path).read_bytes() for path in before if (sdk / path).is_file()}
    assert after == before
    assert not stale.exists()
    assert gen.owned(sdk) == gen.owned(fresh)
