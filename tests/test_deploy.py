"""The deployment files parse, and every setting they give is one the service reads, with a
value it accepts; the commands they run exist; the autoscaler scales the API."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.cli.main import main
from service.infra.config import Settings

DEPLOY = Path(__file__).parents[1] / "deploy"
FILES = sorted(DEPLOY.rglob("*.yaml"))


def documents(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def settings_in(node: Any) -> dict[str, str]:
    """Every environment variable a file sets: compose `environment`, a ConfigMap's `data`."""
    found: dict[str, str] = {}
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("environment", "data") and isinstance(value, dict):
                found |= {k: str(v) for k, v in value.items()}
            else:
                found |= settings_in(value)
    elif isinstance(node, list):
        for item in node:
            found |= settings_in(item)
    return found


def commands_in(node: Any) -> list[list[str]]:
    found: list[list[str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "command" and isinstance(value, list) and value and value[0] == "danger":
                found.append([str(v) for v in value])
            else:
                found += commands_in(value)
    elif isinstance(node, list):
        for item in node:
            found += commands_in(item)
    return found


def test_there_are_compose_files_and_kubernetes_manifests():
    names = {p.relative_to(DEPLOY).as_posix() for p in FILES}
    assert {"compose.yaml", "cluster/compose.yaml"} <= names
    kinds = {d["kind"] for p in FILES if p.parent.name == "k8s" for d in documents(p)}
    assert {"ConfigMap", "Deployment", "Service", "HorizontalPodAutoscaler"} <= kinds


class Recording(dict):
    """An environment that remembers every name it was asked for."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(DEPLOY).as_posix())
def test_every_setting_a_deployment_gives_is_read_and_accepted(path, monkeypatch):
    given = settings_in(documents(path))
    environment = Recording(given)
    monkeypatch.setattr(os, "environ", environment)
    Settings.from_env()  # a value it refuses raises here
    unread = set(given) - environment.asked
    assert not unread, f"{path.name} sets what the service never reads: {sorted(unread)}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(DEPLOY).as_posix())
def test_every_command_a_deployment_runs_exists(path, capsys):
    for command in commands_in(documents(path)):
        with pytest.raises(SystemExit) as exited:
            main([*command[1:], "--help"])
        assert exited.value.code == 0, shlex.join(command)
    capsys.readouterr()


def test_the_autoscaler_scales_the_api_deployment():
    manifests = [d for p in FILES if p.parent.name == "k8s" for d in documents(p)]
    hpa = next(d for d in manifests if d["kind"] == "HorizontalPodAutoscaler")
    target = hpa["spec"]["scaleTargetRef"]
    deployments = {d["metadata"]["name"]: d for d in manifests if d["kind"] == "Deployment"}
    api = deployments[target["name"]]
    command = api["spec"]["template"]["spec"]["containers"][0]["command"]
    assert command[:2] == ["danger", "serve"] and "--api-only" in command


def test_the_dashboard_reads_only_metrics_the_service_exports():
    """Every series the Grafana dashboard queries is one /metrics exposes (a renamed metric
    would leave a panel empty without a word)."""
    import json
    import re

    from service.infra import metrics

    exported = set()
    for family in metrics.REGISTRY.collect():
        if family.name.startswith("danger_"):
            exported |= {s.name for s in family.samples} | {family.name}
            if family.type in ("counter",):
                exported.add(family.name + "_total")
            if family.type == "histogram":
                exported |= {family.name + suffix for suffix in ("_bucket", "_count", "_sum")}
    dashboard = json.loads((DEPLOY / "grafana" / "danger-hall.json").read_text())
    queried = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bdanger_[a-z_]+", target["expr"])
    }
    assert queried, "the dashboard queries nothing"
    assert queried <= exported, queried - exported
    titles = {panel["title"] for panel in dashboard["panels"]}
    assert {"Command latency p99 by game", "Timer lateness p99"} <= titles
