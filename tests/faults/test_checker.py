"""The fault suite's checker finds each kind of broken promise in a history and logs made to
break it, and nothing in a whole game played as the service plays it (a checker that could
not fail would prove nothing). No lab, no store: games simulated in-process (tests/exports.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from events.envelope import Envelope
from tests.exports import simulated_log
from tests.faults.checker import Verdict, check_answers, check_game, timers_rung
from tests.faults.load import History


def at(envelope: Envelope) -> datetime:
    return datetime.fromisoformat(envelope.at.replace("Z", "+00:00"))


def game() -> tuple[str, list[Envelope], dict[int, datetime]]:
    """A finished Danger Danger game with its round timers rung, and each append landing
    (its feed entry) 5 ms after its stamp."""
    game_id, envelopes = simulated_log("danger-danger", 4, options={"round_seconds": 1})
    return game_id, envelopes, {e.seq: at(e) + timedelta(milliseconds=5) for e in envelopes}


def verdict_of(envelopes, when, history=None, game_id=None) -> set[str]:
    verdict = Verdict()
    history = history or History()
    check_game(game_id or envelopes[0].game, envelopes, when, history, verdict)
    check_answers(history, verdict)
    return {rule for rule, _ in verdict.violations}


def test_a_game_played_by_the_rules_and_told_as_logged_breaks_nothing():
    game_id, envelopes, when = game()
    history = History()
    history.acknowledge(game_id, [{"seq": e.seq, "hash": e.hash} for e in envelopes[::3]])
    history.streamed[game_id] = {e.seq: e.hash for e in envelopes}
    assert timers_rung(envelopes), "the game rang its round timers"
    assert verdict_of(envelopes, when, history) == set()


def test_an_acknowledged_event_the_log_lost_or_holds_otherwise():
    game_id, envelopes, when = game()
    history = History()
    history.acknowledge(game_id, [{"seq": 5, "hash": "0" * 64}])
    assert verdict_of(envelopes, when, history) == {"lost"}
    history = History()
    history.streamed[game_id] = {7: "f" * 64}
    assert verdict_of(envelopes, when, history) == {"shown"}
    history = History()
    history.stream_forks.append(f"{game_id}: seq 7 shown as aaaa and bbbb")
    assert verdict_of(envelopes, when, history) == {"shown"}


def test_a_gap_a_running_game_and_a_command_applied_twice():
    _, envelopes, when = game()
    assert "chain" in verdict_of(envelopes[:10] + envelopes[11:], when)
    assert verdict_of(envelopes[:-5], when) == {"rules"}  # still running: not over
    told = History()
    told.games[envelopes[0].game] = "danger-danger"
    assert verdict_of(envelopes[:1], when, told) == {"rules"}  # open, though a client knew it
    assert verdict_of(envelopes[:1], when) == set()  # an orphan of a lost answer
    caused = [i for i, e in enumerate(envelopes) if e.cause is not None and e.command][:2]
    twice = list(envelopes)
    twice[caused[1]] = msgspec.structs.replace(twice[caused[1]], command=twice[caused[0]].command)
    assert "twice" in verdict_of(twice, when)


def test_a_timer_rung_early_by_the_stores_clock_and_a_stamp_from_the_future():
    _, envelopes, when = game()
    seq, _, deadline = timers_rung(envelopes)[0]
    assert deadline is not None
    early = {**when, seq: deadline - timedelta(seconds=1)}  # its append landed a second early
    assert verdict_of(envelopes, early) == {"timer", "stamp"}
    ahead = {**when, 3: at(envelopes[2]) - timedelta(seconds=30)}  # stamped 30 s ahead
    assert verdict_of(envelopes, ahead) == {"stamp"}


def test_a_500_and_a_503_without_retry_after_are_wrong_answers():
    _, envelopes, when = game()
    history = History()
    history.unanswerable.append("POST /v1/games: 500 internal")
    assert verdict_of(envelopes, when, history) == {"answers"}
