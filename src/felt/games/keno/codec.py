"""Keno actions as JSON and back, for the server's record (19:47-15.5(h): what was done, by whom,
when, with the numbers drawn, kept so the system can be rebuilt): :func:`to_json` and
:func:`from_json` are inverse.  Times are ISO 8601 with their offset, dates ISO, staff
``{"id", "role"}``, cents as integers (the record is the casino's, not a client's).

>>> from datetime import UTC, datetime
>>> from felt.games.keno.system import OpenGame
>>> a = OpenGame(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), datetime(2026, 1, 2, 3, 9, 5, tzinfo=UTC))
>>> to_json(a)
{'action': 'open_game', 'at': '2026-01-02T03:04:05+00:00', 'closes_at': '2026-01-02T03:09:05+00:00'}
>>> from_json(to_json(a)) == a
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import date, datetime
from typing import Any, Final

from felt.core.errors import FeltError, excerpt
from felt.games.keno import system
from felt.games.keno.system import Action, Effect, Staff

ACTIONS: Final[dict[str, type[Action]]] = {
    cls.name: cls
    for cls in vars(system).values()
    if isinstance(cls, type) and issubclass(cls, Action) and cls.name
}
"""Every action of the keno system by its name."""
_STAFF: Final = ("by", "writer", "supervisor", "approved_by")
_TIMES: Final = ("at", "closes_at")


def _encode(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in _TIMES:
        return value.isoformat()
    if name == "day":
        return value.isoformat()
    if name in _STAFF:
        return {"id": value.id, "role": value.role}
    if name == "numbers":
        return list(value)
    if name == "request":
        return dict(value)
    return value


def to_json(action: Action) -> dict[str, Any]:
    """The action as a JSON object: ``{"action": name, field: value, ...}``."""
    out: dict[str, Any] = {"action": action.name}
    for f in fields(action):
        out[f.name] = _encode(f.name, getattr(action, f.name))
    return out


def _time(value: object, where: str) -> datetime:
    try:
        out = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        out = None
    if out is None or out.tzinfo is None:
        raise FeltError(f"{where}: a time in ISO 8601 with its offset, got {excerpt(value)}")
    return out


def _day(value: object, where: str) -> date:
    try:
        if isinstance(value, str) and len(value) == 10:
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise FeltError(f"{where}: a date YYYY-MM-DD, got {excerpt(value)}")


def _staff(value: object, where: str) -> Staff:
    if not isinstance(value, Mapping) or set(value) != {"id", "role"}:
        raise FeltError(f"{where}: staff is {{'id', 'role'}}, got {excerpt(value)}")
    return Staff(str(value["id"]), str(value["role"]))


def _decode(name: str, value: Any, where: str) -> Any:
    if value is None:
        return None
    decoders: dict[str, Callable[[Any, str], Any]] = {
        "at": _time,
        "closes_at": _time,
        "day": _day,
        "numbers": lambda v, w: tuple(v) if isinstance(v, list) else v,
    }
    if name in _STAFF:
        return _staff(value, f"{where}.{name}")
    decode = decoders.get(name)
    return value if decode is None else decode(value, f"{where}.{name}")


def from_json(data: object, where: str = "keno action") -> Action:
    """The action a :func:`to_json` object describes; a malformed one is refused with the
    reason (the system checks what it allows when the action is applied)."""
    if not isinstance(data, Mapping):
        raise FeltError(f"{where}: an action is a JSON object, got {excerpt(data)}")
    cls = ACTIONS.get(data.get("action"))  # type: ignore[arg-type]
    if cls is None:
        raise FeltError(f"{where}: action must be one of {', '.join(ACTIONS)}, got "
                        f"{excerpt(data.get('action'))}")  # fmt: skip
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"action"}
    if extra:
        raise FeltError(f"{where}: {cls.name} has no {', '.join(sorted(map(str, extra)))}")
    kwargs = {n: _decode(n, data[n], where) for n in names if n in data}
    try:
        return cls(**kwargs)
    except TypeError as err:
        raise FeltError(f"{where}: {cls.name}: {err}") from None


def effect_json(effect: Effect) -> dict[str, Any]:
    """An effect as stored (amount in cents)."""
    return {
        "kind": effect.kind,
        "ticket": effect.ticket,
        "amount": effect.amount,
        "detail": effect.detail,
    }


__all__ = ["ACTIONS", "effect_json", "from_json", "to_json"]
