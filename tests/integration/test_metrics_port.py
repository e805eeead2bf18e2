"""`DANGER_METRICS=port`: /metrics on a port of its own, for every process of `danger serve`,
and not on the API's port."""

from __future__ import annotations

import signal

import httpx
import pytest

from service.infra.config import Settings
from tests.integration.test_restart import free_port, serve


@pytest.mark.parametrize("workers", [1, 2])
def test_metrics_on_a_port_of_their_own_and_not_on_the_apis(tmp_path, workers):
    port, metrics_port = free_port(), free_port()
    flags = ["--workers", "2"] if workers == 2 else []
    settings = {"DANGER_METRICS": "port", "DANGER_METRICS_PORT": str(metrics_port)}
    proc = serve(tmp_path / "data", port, *flags, settings=settings)
    try:
        for _ in range(3):
            assert httpx.get(f"http://127.0.0.1:{port}/v1/games").status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/metrics").status_code == 404
        scraped = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics")
        assert scraped.status_code == 200
        assert 'route="/v1/games"' in scraped.text
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def test_the_metrics_settings_say_what_they_need(monkeypatch):
    for env, says in [
        ({"DANGER_METRICS": "token"}, "DANGER_METRICS_TOKEN"),
        ({"DANGER_METRICS": "token", "DANGER_METRICS_TOKEN": "short"}, "at least 16"),
        ({"DANGER_METRICS": "port"}, "DANGER_METRICS_PORT"),
        ({"DANGER_METRICS": "public"}, "open, token, port, off"),
    ]:
        for name in ("DANGER_METRICS", "DANGER_METRICS_TOKEN", "DANGER_METRICS_PORT"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        with pytest.raises(ValueError, match=says):
            Settings.from_env()
