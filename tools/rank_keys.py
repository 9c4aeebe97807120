"""Find felt.tables.RANK_KEYS: the smallest increasing keys with unique sums for 7 ranks.

Greedy: each rank's key is the smallest number above the previous one for which every multiset of
seven ranks (each rank at most four times) over the ranks so far still has its own sum.  Takes
about a minute; the result is written into felt/tables.py by hand and checked by the tests.
Run with ``.venv/bin/python tools/rank_keys.py``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from felt.core._jit import jit
from felt.core.tables import _rank_multisets


@jit
def _unique_with(
    sums_by_copies: list[NDArray[np.int64]], key: int, seen: NDArray[np.int64], stamp: int
) -> bool:  # pragma: no cover
    for copies in range(5):
        for s in sums_by_copies[copies]:
            v = s + copies * key
            if seen[v] == stamp:
                return False
            seen[v] = stamp
    return True


def main() -> None:
    import numba

    keys = [0]
    seen = np.zeros(20_000_000, dtype=np.int64)
    stamp = 0
    for rank in range(1, 13):
        sums = numba.typed.List()
        for copies in range(5):
            counts = _rank_multisets(7 - copies)[:, :rank].astype(np.int64)
            full = counts.sum(axis=1) == 7 - copies  # only multisets over the ranks so far
            sums.append(np.unique(counts[full] @ np.array(keys, dtype=np.int64)))
        key = keys[-1] + 1
        while True:
            stamp += 1
            if _unique_with(sums, key, seen, stamp):
                break
            key += 1
        keys.append(key)
        print(rank, key, flush=True)
    print(tuple(keys))


if __name__ == "__main__":
    main()
