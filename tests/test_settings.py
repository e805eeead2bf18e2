"""The settings (service/infra/config.py): every variable the service reads is in README.md's
table of settings and the docs name no other; a value of each kind the service cannot use is
refused, by the one check of the settings, with a line naming the variable and what it
allows; `danger serve` and `danger worker` stop on it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.cli.main import main
from service.infra.config import Rate, Settings, variables

ROOT = Path(__file__).parents[1]
# Read by the examples and the tests, not by the service.
NOT_SETTINGS = {"DANGER_API", "DANGER_TEST_REDIS_URL", "DANGER_TEST_QUEUE_URL"}
NOT_SETTINGS |= {"DANGER_TEST_SCREENSHOTS"}


def table() -> list[str]:
    """The variables README.md's table of settings lists, in its order."""
    section = (ROOT / "README.md").read_text().split("\n## Settings\n", 1)[1]
    section = section.split("\n## ", 1)[0]
    return re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", section, re.MULTILINE)


def test_every_setting_is_in_the_readme_table_and_the_table_lists_no_other():
    listed = table()
    assert len(listed) == len(set(listed)), "listed twice"
    assert not set(variables()) - set(listed), "read by the service, not in README.md's table"
    assert not set(listed) - set(variables()), "in README.md's table, not read by the service"


def test_the_docs_name_no_setting_the_service_does_not_read():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    documents += sorted((ROOT / "deploy").rglob("*.md"))
    known = set(variables()) | NOT_SETTINGS
    for document in documents:
        for name in set(re.findall(r"\bDANGER_[A-Z0-9_]+", document.read_text())):
            if name.endswith("_"):  # a family: DANGER_RATE_*
                assert any(v.startswith(name) for v in known), (document.name, name)
            else:
                assert name in known, (document.name, name)


def test_unset_or_set_to_nothing_is_the_default_and_a_switch_set_to_nothing_is_off():
    assert Settings.from_env({}) == Settings()
    blank = {name: "" for name in variables()}
    switches = {"DANGER_SANDBOX", "DANGER_BACKGROUND", "DANGER_DIRECT_COMMANDS"}
    switches |= {"DANGER_RATE_LIMITS", "DANGER_STREAM_PROCESS", "DANGER_ACCESS_LOG"}
    assert Settings.from_env({k: v for k, v in blank.items() if k not in switches}) == Settings()
    off = Settings.from_env({name: "" for name in switches})
    assert not (off.worker.background or off.server.direct_commands or off.limits.rate_limits)
    assert not (off.streams.stream_process or off.play.sandbox or off.observe.access_log)


def test_each_setting_is_read_from_its_variable():
    settings = Settings.from_env(
        {
            "DANGER_PORT": "9000",
            "DANGER_OPEN_HOURS": "1.5",
            "DANGER_SHARDS": "64",
            "DANGER_DURABILITY": "replicas:2",
            "DANGER_DURABILITY_WAIT_MS": "250",
            "DANGER_RATE_JOIN": "5/10",
            "DANGER_UNSEATED_PLAYER_HOURS": "2",
            "DANGER_PROJECTION_ATTEMPTS": "3",
            "DANGER_AUDIT_UPLOAD_MB": "2",
            "DANGER_METRICS": " Token ",
            "DANGER_METRICS_TOKEN": "x" * 16,
            "DANGER_METRICS_PORT": "0",
            "DANGER_QUEUE_URL": "redis://q0:6379/0, redis://:pw@q1:6380",
        }
    )
    assert settings.store.queue_urls == ("redis://q0:6379/0", "redis://:pw@q1:6380")
    assert Settings.from_env({"DANGER_QUEUE_URL": "unix:///run/q.sock"}).store.queue_urls == (
        "unix:///run/q.sock",
    )
    # One URL in code, as the variable's text; unset, the store's own server.
    assert Settings().replace(queue_url="redis://q:1").store.queue_urls == ("redis://q:1",)
    assert Settings().store.queue_urls is None
    assert settings.server.port == 9000 and settings.lifecycle.open_hours == 1.5
    assert settings.store.shards == 64 and str(settings.store.durability) == "replicas:2"
    assert settings.store.durability.wait_ms == 250
    assert settings.rates.join == Rate(5, 10) and settings.rates.create == Rate(20, 60)
    assert settings.unseated_players.keep_ms == 2 * 3600 * 1000
    assert settings.projections.attempts == 3
    assert settings.http.audit_upload_bytes == 2 * 2**20
    assert settings.observe.metrics == "token" and settings.observe.metrics_port is None


def test_settings_are_changed_by_the_names_of_their_variables():
    settings = Settings().replace(
        rate_limits=False, trusted_proxy=("*",), projection_attempts=2, queue="dg:timers:x"
    )
    assert not settings.limits.rate_limits and settings.http.trusted_proxies == ("*",)
    assert settings.projections.attempts == 2 and settings.store.queue == "dg:timers:x"
    with pytest.raises(TypeError, match="no setting 'trusted_proxies'"):
        Settings().replace(trusted_proxies=("*",))


REFUSED = [
    # Text that is not a value of the setting's kind.
    ({"DANGER_PORT": "eighty"}, "DANGER_PORT: expected a whole number; got 'eighty'"),
    ({"DANGER_OPEN_HOURS": "soon"}, "DANGER_OPEN_HOURS: expected a number; got 'soon'"),
    ({"DANGER_SHARDS": "1e3"}, "DANGER_SHARDS: expected a whole number; got '1e3'"),
    ({"DANGER_OPEN_GAMES_PER_CLIENT": "ten"}, "DANGER_OPEN_GAMES_PER_CLIENT: expected a whole"),
    ({"DANGER_RATE_JOIN": "5 a minute"}, "DANGER_RATE_JOIN: expected requests/seconds"),
    ({"DANGER_DURABILITY": "always"}, "DANGER_DURABILITY: expected fsync, replicas:N"),
    ({"DANGER_DURABILITY_WAIT_MS": "1.5"}, "DANGER_DURABILITY_WAIT_MS: expected a whole"),
    # A queue server's URL that cannot be one, its password never repeated.
    (
        {"DANGER_QUEUE_URL": "redis://:secret@q0:6379, redis://:secret@q1:63 80"},
        "DANGER_QUEUE_URL: expected redis://host:port/db; the port is not a number from 0 to "
        "65535: 'redis://:***@q1:63 80'",
    ),
    ({"DANGER_QUEUE_URL": "q0:6379"}, "DANGER_QUEUE_URL: expected redis://, rediss:// or unix"),
    ({"DANGER_QUEUE_URL": "redis://q0,"}, "DANGER_QUEUE_URL: expected URLs separated by commas"),
    ({"DANGER_QUEUE_URL": "redis://q0/x"}, "DANGER_QUEUE_URL: expected redis://host:port/db;"),
    ({"DANGER_QUEUE_URL": "redis://q0,redis://q0"}, "DANGER_QUEUE_URL: a queue server is named"),
    (
        {"DANGER_QUEUE_URL": ",".join(f"redis://q{i}" for i in range(65))},
        "DANGER_QUEUE_URL: at most 64 queue servers; got 65",
    ),
    # A value out of its range.
    ({"DANGER_REDIS_CONNECTIONS": "0"}, "DANGER_REDIS_CONNECTIONS must be at least 1, not 0"),
    ({"DANGER_MAX_EVENTS": "9"}, "DANGER_MAX_EVENTS must be at least 10, not 9"),
    ({"DANGER_CPU_QUEUE": "-1"}, "DANGER_CPU_QUEUE must be at least 0, not -1"),
    ({"DANGER_FEED_KEEP_SECONDS": "nan"}, "DANGER_FEED_KEEP_SECONDS must be at least 0, not nan"),
    ({"DANGER_SWEEP_SECONDS": "0"}, "DANGER_SWEEP_SECONDS must be more than 0, not 0.0"),
    ({"DANGER_GIVE_UP_SECONDS": "nan"}, "DANGER_GIVE_UP_SECONDS must be more than 0, not nan"),
    ({"DANGER_HEAD_TIMEOUT_SECONDS": "inf"}, "DANGER_HEAD_TIMEOUT_SECONDS must be more than 0"),
    ({"DANGER_SHARDS": "0"}, "DANGER_SHARDS must be from 1 to 16384, not 0"),
    ({"DANGER_STREAM_NICE": "20"}, "DANGER_STREAM_NICE must be from 0 to 19, not 20"),
    ({"DANGER_DURABILITY_WAIT_MS": "60001"}, "DANGER_DURABILITY_WAIT_MS must be from 1 to 60000"),
    # A choice that is not one of those offered.
    ({"DANGER_AUTH": "closed"}, "DANGER_AUTH must be one of open, keys, not 'closed'"),
    ({"DANGER_LOG_FORMAT": "XML"}, "DANGER_LOG_FORMAT must be one of json, text, not 'xml'"),
    ({"DANGER_METRICS": "public"}, "DANGER_METRICS must be one of open, token, port, off"),
    ({"DANGER_SERVER_STACK": "granite"}, "DANGER_SERVER_STACK must be one of auto, asyncio"),
    (
        {"DANGER_TRUSTED_PROXY": "10.0.0.0/8, proxy.example"},
        "DANGER_TRUSTED_PROXY must be 1, or addresses and networks such as 10.0.0.0/8 "
        "separated by commas, not 'proxy.example'",
    ),
    # Settings that do not go together.
    (
        {"DANGER_CONNECTIONS_PER_CLIENT": "20"},
        "DANGER_CONNECTIONS_PER_CLIENT (20) must be more than DANGER_STREAMS_PER_CLIENT (20)",
    ),
    ({"DANGER_METRICS": "token"}, "DANGER_METRICS=token needs DANGER_METRICS_TOKEN, at least 16"),
    ({"DANGER_METRICS": "port"}, "DANGER_METRICS=port needs DANGER_METRICS_PORT"),
]


@pytest.mark.parametrize(("environ", "says"), REFUSED, ids=lambda v: str(v)[:40])
def test_a_value_the_service_cannot_use_is_refused_naming_its_variable(environ, says):
    with pytest.raises(ValueError) as refused:
        Settings.from_env(environ)
    assert str(refused.value).startswith(says)


def test_settings_made_in_code_are_checked_as_those_from_the_environment():
    with pytest.raises(ValueError, match="DANGER_MAX_EVENTS must be at least 10, not 5"):
        Settings().replace(max_events=5)
    with pytest.raises(ValueError, match=r"DANGER_TRUSTED_PROXY .* not 'not-an-address'"):
        Settings().replace(trusted_proxy=("not-an-address",))
    with pytest.raises(ValueError, match="DANGER_CONNECTIONS_PER_CLIENT"):
        Settings().replace(streams_per_client=64)
    assert Settings().replace(streams_per_client=64, connections_per_client=0)


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_danger_stops_on_a_value_it_cannot_use(command, monkeypatch, capsys):
    monkeypatch.setenv("DANGER_STREAM_NICE", "20")
    assert main([command]) == 2
    said = capsys.readouterr().err
    assert said.startswith("danger") and "DANGER_STREAM_NICE must be from 0 to 19" in said


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_danger_stops_on_a_queue_url_it_cannot_use_and_never_prints_its_password(
    command, monkeypatch, capsys
):
    monkeypatch.setenv("DANGER_QUEUE_URL", "redis://:hunter2@q0:6379/0,redis://:hunter2@q1:x")
    assert main([command]) == 2
    said = capsys.readouterr().err
    assert said.startswith("danger") and "DANGER_QUEUE_URL: expected redis://host:port" in said
    assert "hunter2" not in said and said.count("\n") == 1
