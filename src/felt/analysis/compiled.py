"""Compiled (numba) pieces the games' counts and simulation fast paths share: kept apart from
:mod:`felt.analysis.kernels`, which is numpy alone so that an analysis compiling nothing does
not load numba."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit_inline
from felt.core.tables import ROW_BITS, ROW_MASK


@jit_inline
def slot_of(low: int, row_offsets: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Perfect-hash slot of a rank sum (``n * SIZE_UNIT`` plus rank keys; see felt.core.tables)."""
    return int(row_offsets[low >> ROW_BITS] + (low & ROW_MASK))
