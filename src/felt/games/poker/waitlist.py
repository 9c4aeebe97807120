"""The poker room's waiting lists (N.J.A.C. 19:47-14.18 Waiting list).

A list per game and limit ("holdem 2/4 fixed"); "all vacant seats shall be filled on a first come
first served basis", so a vacancy is offered to the first player on the list; a player may wait on
several lists; only vacancies with someone waiting may be announced.  Pure: times are passed in.

>>> w = WaitingLists(arrive_seconds=120)
>>> w.join("holdem 2/4 fixed", "ann", 0); w.join("holdem 2/4 fixed", "bob", 5)
>>> w.call("holdem 2/4 fixed", 10).name
'ann'
>>> w.player_view("bob")
{'holdem 2/4 fixed': '2nd of 2'}
>>> w.announce(["holdem 2/4 fixed", "omaha 5/10 pot"])
('holdem 2/4 fixed',)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from felt.core.errors import FeltError, excerpt

NoShow = Literal["remove", "move_down"]


@dataclass(frozen=True)
class Entry:
    """One player's place on a list: when they joined and, once called, when they must arrive."""

    name: str
    joined: float
    called_at: float | None = None
    arrive_by: float | None = None


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``: a place as the floor says it."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class WaitingLists:
    """Every waiting list of the room (14.18): join, remove, call, arrive, no-show, move down."""

    def __init__(self, arrive_seconds: float = 180, no_show: NoShow = "remove") -> None:
        if not arrive_seconds > 0:
            raise FeltError(
                f"arrive_seconds must be a positive number of seconds, got {excerpt(arrive_seconds)}"
            )
        if no_show not in ("remove", "move_down"):
            raise FeltError(f"no_show must be 'remove' or 'move_down', got {excerpt(no_show)}")
        self.arrive_seconds = arrive_seconds
        self.no_show_rule: NoShow = no_show
        self._lists: dict[str, list[Entry]] = {}

    @classmethod
    def restore(
        cls, lists: Mapping[str, Sequence[Entry]], arrive_seconds: float = 180,
        no_show: NoShow = "remove",
    ) -> WaitingLists:  # fmt: skip
        """Lists as a store kept them, each in order (a server loads a list, changes it by the
        methods below and writes it back, so the rules live here once)."""
        lists_ = cls(arrive_seconds, no_show)
        for game, entries in lists.items():
            names = [e.name for e in entries]
            if len(set(names)) != len(names):
                raise FeltError(f"a player is on the {game!r} list twice: {sorted(names)}")
            if entries:
                lists_._lists[game] = list(entries)
        return lists_

    def _list(self, game: str) -> list[Entry]:
        if game not in self._lists:
            raise FeltError(f"no one is waiting for {excerpt(game)}; lists: {sorted(self._lists)}")
        return self._lists[game]

    def _index(self, game: str, name: str) -> int:
        for i, entry in enumerate(self._list(game)):
            if entry.name == name:
                return i
        raise FeltError(f"{excerpt(name)} is not on the {game!r} list")

    def _drop(self, game: str, i: int) -> Entry:
        entries = self._lists[game]
        entry = entries.pop(i)
        if not entries:
            del self._lists[game]
        return entry

    def join(self, game: str, name: str, now: float) -> None:
        """Put ``name`` at the end of the ``game`` list (first come first served, 14.18)."""
        if not game.strip() or not name.strip():
            raise FeltError(
                "a waiting list needs a game (such as 'holdem 2/4 fixed') and a player name"
            )
        if any(e.name == name for e in self._lists.get(game, [])):
            raise FeltError(f"{excerpt(name)} is already on the {game!r} list")
        self._lists.setdefault(game, []).append(Entry(name, now))

    def remove(self, game: str, name: str) -> Entry:
        """Take ``name`` off the ``game`` list (they asked, or the floor did)."""
        return self._drop(game, self._index(game, name))

    def call(self, game: str, now: float) -> Entry:
        """A seat is vacant at a ``game`` table: call the first player not yet called (14.18),
        who must arrive within the room's time."""
        entries = self._lists.get(game, [])
        for i, entry in enumerate(entries):
            if entry.called_at is None:
                entries[i] = replace(entry, called_at=now, arrive_by=now + self.arrive_seconds)
                return entries[i]
        raise FeltError(f"no one is waiting to be called for {excerpt(game)}")

    def arrive(self, game: str, name: str, now: float) -> Entry:
        """The called player takes the seat in time: off the list."""
        i = self._index(game, name)
        entry = self._lists[game][i]
        if entry.arrive_by is None:
            raise FeltError(
                f"{excerpt(name)} has not been called for {game!r}; only a called player may take the seat"
            )
        if now > entry.arrive_by:
            raise FeltError(
                f"{excerpt(name)} arrived at {now} after the time to arrive ({entry.arrive_by}); record a no-show"
            )
        return self._drop(game, i)

    def no_show(self, game: str, name: str, now: float) -> Entry | None:
        """A called player did not arrive in time: removed, or moved down one place (the room's
        setting), uncalled; returns the entry if it stays on the list."""
        i = self._index(game, name)
        entry = self._lists[game][i]
        if entry.arrive_by is None or now <= entry.arrive_by:
            raise FeltError(
                f"{excerpt(name)} is not a no-show for {game!r}: not called, or still within the time to arrive"
            )
        if self.no_show_rule == "remove":
            self._drop(game, i)
            return None
        self._lists[game][i] = Entry(entry.name, entry.joined)
        self.move_down(game, name)
        return self._lists[game][self._index(game, name)]

    def move_down(self, game: str, name: str, lapse: bool = False) -> None:
        """Move ``name`` one place down the list (no change if already last); with ``lapse`` a
        call they held lapses too (they passed on the seat: the next call is someone else's)."""
        i = self._index(game, name)
        entries = self._lists[game]
        if lapse:
            entries[i] = Entry(entries[i].name, entries[i].joined)
        if i + 1 < len(entries):
            entries[i], entries[i + 1] = entries[i + 1], entries[i]

    def entries(self, game: str) -> tuple[Entry, ...]:
        """The ``game`` list in order (empty if no one waits)."""
        return tuple(self._lists.get(game, ()))

    def floor_view(self) -> dict[str, tuple[Entry, ...]]:
        """What the floor sees: every list, every entry with joined and arrive-by times."""
        return {game: tuple(entries) for game, entries in sorted(self._lists.items())}

    def player_view(self, name: str) -> dict[str, str]:
        """What one player sees: only their own place on each list they are on ("2nd of 5")."""
        return {
            game: f"{_ordinal(i + 1)} of {len(entries)}"
            for game, entries in sorted(self._lists.items())
            for i, entry in enumerate(entries)
            if entry.name == name
        }

    def announce(self, vacancies: Iterable[str]) -> tuple[str, ...]:
        """The vacancies that may be announced: only those someone is waiting for (14.18)."""
        return tuple(game for game in dict.fromkeys(vacancies) if self._lists.get(game))
