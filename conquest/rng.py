"""The only source of randomness in the engines.

Why a module of its own: every random result must be a chance step written into the log
(so replay is exact), and in play the randomness must come from the operating system's
generator (in the browser, Pyodide maps it to ``crypto.getRandomValues``) so that nobody
holding a link can predict the next roll. Tests pass a seed instead. In play a draw's
result is not taken from here directly: :mod:`conquest.draws` derives it from the host's
sealed chain (whose secret comes from here) and a contribution (issue 26).
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

__all__ = ["Rng", "system_rng", "seeded_rng", "new_seed"]


class Rng:
    """Draws integers uniformly; ``seed=None`` means cryptographic randomness."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)

    def below(self, n: int) -> int:
        """One integer in ``range(n)``."""
        if n < 1:
            raise ValueError(f"cannot draw below {n}")
        return self._random.randrange(n)

    def draw(self, sizes: Sequence[int]) -> tuple[int, ...]:
        """One value per size, each uniform in ``range(size)``: the shape of a ChanceSpec."""
        return tuple(self.below(n) for n in sizes)

    def shuffle_indices(self, n: int) -> tuple[int, ...]:
        """Fisher-Yates draws for ``n`` items: sizes ``n, n-1, ..., 2``."""
        return self.draw(range(n, 1, -1))


def apply_shuffle(items: Sequence[object], draws: Sequence[int]) -> list[object]:
    """Apply Fisher-Yates draws (from :meth:`Rng.shuffle_indices`) to a copy of ``items``."""
    out = list(items)
    n = len(out)
    if len(draws) != max(0, n - 1):
        raise ValueError(f"a shuffle of {n} items needs {max(0, n - 1)} draws, got {len(draws)}")
    for k, j in enumerate(draws):
        i = n - 1 - k
        if not 0 <= j <= i:
            raise ValueError(f"shuffle draw {j} out of range 0..{i}")
        out[i], out[j] = out[j], out[i]
    return out


def system_rng() -> Rng:
    return Rng(None)


def seeded_rng(seed: int) -> Rng:
    return Rng(seed)


def new_seed() -> int:
    """A fresh set-up seed (stored in the save, so it must not matter for secrecy)."""
    return secrets.randbelow(2**31)
