"""Generates the Python SDK in clients/python from openapi/openapi.json (`make client`).

openapi-python-client (its settings in clients/python-config.yaml) writes into a scratch
directory, whose files then become clients/python's: a file the generator no longer writes
is deleted, and the hand-written parts (HANDWRITTEN) are never touched. The spec goes in
with the adaptations of `adapted`, each for a construct this generator cannot map (and a
no-op once the spec avoids it). tests/test_client.py generates again and compares.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "openapi" / "openapi.json"
CONFIG = Path(__file__).with_name("python-config.yaml")
TARGET = ROOT / "clients" / "python"
META = "pdm"  # pyproject.toml on pdm-backend, which pip fetches by itself
FIELD_PREFIX = "field_"  # the generator's default, in python-config.yaml if ever changed

# Beside the generated package, never written by the generator (clients/README.md).
HANDWRITTEN = frozenset({"danger_hall", "danger_hall_extras", "README.md", "ruff.toml"})
# What building, installing or linting the SDK leaves in it: neither generated nor kept.
DEBRIS = frozenset({"__pycache__", ".pdm-build", ".ruff_cache", "build", "dist"})


def distinct_titles(spec: dict[str, Any]) -> None:
    """The generator names a model by its schema's title, and gives up on every schema after
    the first that shares one: Litestar keeps the title of same-named structs from different
    modules (`danger_messages_RoundScored`, `danger_13_messages_RoundScored`: "RoundScored").
    Each gets its key's module path as a prefix instead: DangerRoundScored, Danger13RoundScored."""
    schemas = spec.get("components", {}).get("schemas", {})
    by_title: dict[str, list[str]] = defaultdict(list)
    for key, schema in schemas.items():
        if "title" in schema:
            by_title[schema["title"]].append(key)
    for title, keys in by_title.items():
        if len(keys) < 2:
            continue
        for key in keys:
            if key == title or not key.endswith(title):
                continue
            parts = key[: -len(title)].strip("_").split("_")
            prefix = "".join(p.capitalize() for p in parts if p not in ("", "messages"))
            schemas[key]["title"] = prefix + title


def open_maps(spec: dict[str, Any]) -> None:
    """An object whose property names come out as the same Python identifier ("+" and "++",
    "+1" and "1" in Danger13Deck: card names) cannot be a model with attributes; it becomes a
    mapping of name to value, its names and bounds moved into its description."""
    from openapi_python_client.strings import PythonIdentifier

    for schema in spec.get("components", {}).get("schemas", {}).values():
        properties: dict[str, Any] = schema.get("properties") or {}
        names = [PythonIdentifier(name, FIELD_PREFIX) for name in properties]
        if len(set(names)) == len(names):
            continue
        kinds = {json.dumps(p.get("type")) for p in properties.values()}
        kind = json.loads(kinds.pop()) if len(kinds) == 1 else None
        value: dict[str, Any] = {"type": kind} if kind is not None else {}
        bounds = [p["maximum"] for p in properties.values() if "maximum" in p]
        if value.get("type") in ("integer", "number") and len(bounds) == len(properties):
            value["minimum"] = min(p.get("minimum", 0) for p in properties.values())
            value["maximum"] = max(bounds)
        keys = ", ".join(
            f"`{name}`" + (f" (at most {p['maximum']:g})" if "maximum" in p else "")
            for name, p in properties.items()
        )
        described = schema.get("description", "").rstrip()
        schema["description"] = f"{described} Names: {keys}.".lstrip()
        schema["additionalProperties"] = value
        del schema["properties"]
        schema.pop("required", None)


def nullable_enums(node: Any) -> None:
    """`{"type": ["null", "string"], "enum": ["random", "greedy", null]}` comes out of the
    generator as a union of three copies of the same Literal; as a oneOf of the enumeration
    and null (the spec's own spelling of every other optional field) it is one Literal or None."""
    if isinstance(node, list):
        for item in node:
            nullable_enums(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        nullable_enums(value)
    types, values = node.get("type"), node.get("enum")
    if isinstance(types, list) and "null" in types and isinstance(values, list) and None in values:
        rest = [t for t in types if t != "null"]
        enumeration = {"type": rest[0] if len(rest) == 1 else rest}
        enumeration["enum"] = [v for v in values if v is not None]
        del node["type"], node["enum"]
        node["oneOf"] = [enumeration, {"type": "null"}]


def optional_security(spec: dict[str, Any]) -> None:
    """An operation that may be called without a token (`{}` among its security requirements:
    a spectator's read, an anonymous create or join) would take only an AuthenticatedClient,
    since the generator reads `security` as all or nothing; without it, the operation takes a
    Client or an AuthenticatedClient, which is what the spec says. (The generator uses
    `security` for nothing else.)"""
    for item in spec.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and {} in operation.get("security", []):
                del operation["security"]


def raw_bodies(spec: dict[str, Any]) -> None:
    """A body the generator is told to treat as application/octet-stream (python-config.yaml)
    must be a binary string, a File, for the generated code to send or return its bytes (a
    plain string is sent as `body.payload` of a str, and returned as bytes typed str). And a
    request body offered as several media types of one schema (an export as application/jsonl,
    application/x-ndjson or text/plain) comes out as one `isinstance` test per media type, all
    the same, the last of which wins: the first media type stays."""
    from ruamel.yaml import YAML

    overrides = YAML(typ="safe").load(CONFIG).get("content_type_overrides") or {}
    raw = {kind for kind, target in overrides.items() if target == "application/octet-stream"}

    def binary(content: dict[str, Any]) -> None:
        for kind, media in content.items():
            schema = media.get("schema") or {}
            if kind in raw and schema.get("type") == "string" and "format" not in schema:
                media["schema"] = {**schema, "format": "binary"}

    for item in spec.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                binary(response.get("content") or {})
            body = operation.get("requestBody") or {}
            content: dict[str, Any] = body.get("content") or {}
            if len({json.dumps(m.get("schema"), sort_keys=True) for m in content.values()}) == 1:
                body["content"] = dict([next(iter(content.items()))])
            binary(body.get("content") or {})


def without_head(spec: dict[str, Any]) -> None:
    """Every GET has its HEAD twin in the spec (the same answer without its body), which the
    generator would make a module of its own (`head_game`, ...) and a copy of each of the GET's
    enumerations (`HeadListGamesGameType0`); an SDK has no use for a body it never reads."""
    for item in spec.get("paths", {}).values():
        item.pop("head", None)


ADAPTATIONS = (
    without_head,
    distinct_titles,
    open_maps,
    nullable_enums,
    optional_security,
    raw_bodies,
)


def adapted(spec: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(spec)
    for adapt in ADAPTATIONS:
        adapt(out)
    return out


def generate(into: Path, spec_path: Path = SPEC) -> None:
    """The generator's output for the spec at `spec_path`, in the new directory `into`."""
    with tempfile.TemporaryDirectory(prefix="danger-hall-spec-") as scratch:
        spec_file = Path(scratch) / "openapi.json"
        spec_file.write_text(json.dumps(adapted(json.loads(spec_path.read_text()))))
        # The post-hooks (ruff) run from PATH: this interpreter's own tools first.
        tools = str(Path(sys.executable).parent)
        env = {**os.environ, "PATH": os.pathsep.join([tools, os.environ.get("PATH", "")])}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "openapi_python_client",
                "generate",
                "--path",
                str(spec_file),
                "--config",
                str(CONFIG),
                "--meta",
                META,
                "--output-path",
                str(into),
                "--fail-on-warning",
            ],
            env=env,
            capture_output=True,
            text=True,
        )
    if done.returncode != 0 or not (into / "pyproject.toml").is_file():
        raise RuntimeError(f"openapi-python-client failed:\n{done.stdout}{done.stderr}")


def is_debris(relative: Path) -> bool:
    return any(part in DEBRIS or part.endswith(".egg-info") for part in relative.parts)


def owned(tree: Path) -> dict[str, bytes]:
    """Every file of `tree` the generator owns, by relative path, with its content."""
    files: dict[str, bytes] = {}
    for path in sorted(tree.rglob("*")):
        relative = path.relative_to(tree)
        if relative.parts[0] in HANDWRITTEN or is_debris(relative) or not path.is_file():
            continue
        files[relative.as_posix()] = path.read_bytes()
    return files


def replace(target: Path, fresh: Path) -> None:
    """`target`'s generated files become `fresh`'s, the hand-written parts stay. A file that
    is the same is left as it is (its time too, so make installs nothing again for it)."""
    new, old = owned(fresh), owned(target) if target.exists() else {}
    for name in old.keys() - new.keys():
        (target / name).unlink()
    for name, content in new.items():
        if old.get(name) != content:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(content)
    for path in sorted(target.rglob("*"), reverse=True):  # directories emptied above
        relative = path.relative_to(target)
        kept = relative.parts[0] in HANDWRITTEN or is_debris(relative)
        if path.is_dir() and not kept and all(is_debris(Path(p.name)) for p in path.iterdir()):
            shutil.rmtree(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=SPEC, help="the OpenAPI document")
    parser.add_argument("--into", type=Path, default=TARGET, help="the SDK's directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="danger-hall-client-") as scratch:
        fresh = Path(scratch) / "out"
        try:
            generate(fresh, args.spec)
        except RuntimeError as error:
            sys.exit(str(error))
        replace(args.into, fresh)
    print(f"{args.into}: generated from {args.spec}")


if __name__ == "__main__":
    main()
