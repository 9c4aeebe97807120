"""The record's frozen values (effects, transfers, statement lines, events) are made by an
``__init__`` of :func:`felt.rounds.engine.quick_init`, not the dataclass's own: it must take the
same arguments, with the same defaults, and make the same, still frozen, values."""

from __future__ import annotations

import inspect
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields, make_dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from felt.rounds.engine import Effect, Event, SettlementLine, Transfer, quick_init

QUICK = (Effect, Event, SettlementLine, Transfer)


def reference(cls: type) -> type:
    """The same class with the dataclass's own ``__init__`` (the oracle)."""
    spec = [(f.name, Any, field(default=f.default)) for f in fields(cls)]
    return make_dataclass(f"Reference{cls.__name__}", spec, frozen=True)


@pytest.mark.parametrize("cls", QUICK)
def test_the_parameters_are_the_dataclass_s_own(cls: type) -> None:
    mine = inspect.signature(vars(cls)["__init__"]).parameters
    theirs = inspect.signature(vars(reference(cls))["__init__"]).parameters
    assert [(p.name, p.default, p.kind) for p in mine.values()] == [
        (p.name, p.default, p.kind) for p in theirs.values()
    ]


@given(st.sampled_from(QUICK), st.data())
def test_the_values_made_are_the_dataclass_s_own_and_frozen(cls: type, data: st.DataObject) -> None:
    names = [f.name for f in fields(cls)]
    required = sum(f.default is MISSING for f in fields(cls))
    count = data.draw(st.integers(required, len(names)))  # the rest left to their defaults
    values = [data.draw(st.integers() | st.text(max_size=3)) for _ in names[:count]]
    by_name = data.draw(st.booleans())
    args, kwargs = ((), dict(zip(names, values, strict=False))) if by_name else (values, {})
    made = cls(*args, **kwargs)
    oracle = reference(cls)(*args, **kwargs)
    assert [getattr(made, n) for n in names] == [getattr(oracle, n) for n in names]
    assert made == cls(*[getattr(made, n) for n in names])
    with pytest.raises(FrozenInstanceError):
        made.__setattr__(names[0], 1)


def test_a_class_it_cannot_serve_is_refused_at_once() -> None:
    @dataclass
    class Unfrozen:
        a: int

    @dataclass(frozen=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    for cls in (Unfrozen, Factory):
        with pytest.raises(TypeError):
            quick_init(cls)
