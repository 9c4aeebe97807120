"""numba compilation with felt's options, keeping each function's type for mypy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` in nopython mode, cached on disk, releasing the GIL while it runs."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def jit_inline(fn: F) -> F:
    """:func:`jit`, and inlined into compiled callers (no call overhead in an inner loop)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))
