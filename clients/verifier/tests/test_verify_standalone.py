"""The package stands alone: the standard library and cryptography, nothing of the
service (domain, events, service) nor anything else."""

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "danger_verify"


def test_it_imports_only_the_standard_library_and_cryptography():
    allowed = set(sys.stdlib_module_names) | {"cryptography", "__future__"}
    for module in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{module.name} imports {name}"


def test_its_only_dependency_is_cryptography():
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    assert 'dependencies = ["cryptography>=43"]' in pyproject
