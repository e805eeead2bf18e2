"""Counts by key that hold only the keys counted now: what a client holds (streams, places in
the CPU pool, connections) is bounded by what is held, however many clients there were."""

from __future__ import annotations


class Tally:
    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._counts)

    def __getitem__(self, key: str) -> int:
        return self._counts.get(key, 0)

    def add(self, key: str) -> None:
        self._counts[key] = self._counts.get(key, 0) + 1

    def remove(self, key: str) -> None:
        left = self._counts[key] - 1
        if left:
            self._counts[key] = left
        else:
            del self._counts[key]
