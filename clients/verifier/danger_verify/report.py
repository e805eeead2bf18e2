"""A report of named checks: each passes or fails, says why, and names the first event where
it failed; the report explains its first failure in a sentence."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


class InputError(Exception):
    """An input that cannot be checked at all (unreadable, not JSON, not of the documented
    form): the CLI's exit status 2, not a failed check."""


@dataclass(frozen=True)
class Failure:
    """Where a check first fails: the event's seq (None when no one event is to blame) and
    what is wrong there."""

    seq: int | None
    message: str


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    seq: int | None = None
    """The first event where the check failed."""

    @classmethod
    def of(cls, name: str, failure: Failure | None, passed: str) -> Check:
        """A check that passed with `passed`, or failed as `failure` says."""
        if failure is None:
            return cls(name, True, passed)
        return cls(name, False, failure.message, failure.seq)


# What each check's failure means, for the sentence that explains a report's first failure.
MEANING = {
    "chain": "the export is not a log the service could have written (its hash chain is broken)",
    "commitment": "the revealed seed is not the one the service committed to when the game "
    "was created, so the cards could have been chosen",
    "shuffles": "a shuffle or deal is not what the committed seed and the seats' entropy give",
    "keys": "the key list is not trustworthy (a key's id is not its own)",
    "receipts": "the service signed another history than this export holds: the log was "
    "rewritten, or cut short, after the service acknowledged it",
    "tree_head": "the tree head is not signed by a listed key of the service",
    "inclusion": "the transparency log does not hold this export's head",
    "entries": "the transparency log holds another history of this game than the export",
    "old_head": "the older tree head is not signed by a listed key of the service",
    "new_head": "the newer tree head is not signed by a listed key of the service",
    "consistency": "the newer tree does not hold the older one unchanged: the service rewrote "
    "its log (a fork)",
}


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    game: str | None = None
    events: int | None = None

    def add(self, check: Check) -> Check:
        self.checks.append(check)
        return check

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    @property
    def first_failure(self) -> Check | None:
        return next((c for c in self.checks if not c.ok), None)

    def explain(self) -> str:
        """The first failure in a sentence, or that every check passed."""
        failed = self.first_failure
        if failed is None:
            return f"Every check passed ({', '.join(c.name for c in self.checks)})."
        where = f" at event {failed.seq}" if failed.seq is not None else ""
        meaning = MEANING.get(failed.name, f"the check {failed.name} failed")
        detail = failed.detail.rstrip(".")
        return f"The {failed.name} check fails{where}: {detail}; that is, {meaning}."

    def to_json(self) -> dict[str, Any]:
        failed = self.first_failure
        return {
            "game": self.game,
            "events": self.events,
            "ok": self.ok,
            "checks": [asdict(c) for c in self.checks],
            "first_failure": None if failed is None else failed.name,
            "explanation": self.explain(),
        }

    def to_text(self) -> str:
        lines = []
        if self.game is not None:
            lines.append(f"game {self.game}: {self.events} events")
        width = max((len(c.name) for c in self.checks), default=0)
        for c in self.checks:
            where = f" (event {c.seq})" if c.seq is not None and not c.ok else ""
            lines.append(f"{'pass' if c.ok else 'FAIL'}  {c.name:<{width}}  {c.detail}{where}")
        lines.append(self.explain())
        return "\n".join(lines)
