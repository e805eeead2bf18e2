"""The capacity benchmark's machinery on a few games, so that it keeps working between the
runs that give its figure: real `danger serve --workers 2`, real Valkey, a real generator
process. Nothing here is about speed (the step's limits are set out of reach)."""

from __future__ import annotations

from bench.capacity import parser, run


def test_a_capacity_step_plays_replaces_and_streams_games_and_reads_every_process():
    flags = {
        "--steps": "8",
        "--duration": "4",
        "--settle": "1",
        "--interval": "0.02",
        "--jitter": "0.01",
        "--stream-every": "4",
        "--generators": "1",
        "--per-kind": "1",
        "--p99-ms": "1e9",
        "--late-ms": "1e9",
    }
    args = parser().parse_args([x for pair in flags.items() for x in pair])
    result = run(args)

    [step] = result["steps"]
    assert result["held_games"] == 8, step
    assert step["commands"] > 0 and step["errors"] == 0, step
    # Places 3 and 7 play a short Danger Danger game first, with a spectator on each: the
    # game ends, its stream ends after the last event, and another game takes its place.
    assert step["totals"]["games_ended"] >= 2, step
    assert step["totals"]["games_set_up"] >= 10, step
    assert step["totals"]["streams_complete"] >= 2, step
    assert step["stream_events"] > 0
    assert {"api1", "api2", "worker", "valkey", "generator1"} <= set(step["cpu_percent"])
    assert step["valkey_clients"] > 0
