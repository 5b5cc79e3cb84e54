"""Exponential backoff with full jitter and a hard ceiling."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    initial: float
    ceiling: float
    factor: float = 2.0

    def delay(self, attempt: int, rng: random.Random | None = None) -> float:
        """Delay before retry number `attempt` (1-based)."""
        if attempt < 1:
            raise ValueError("attempt starts at 1")
        # Cap the exponent first: 2.0 ** 1100 overflows, and the ceiling wins long before that.
        exponent = min(attempt - 1, 32)
        upper = min(self.ceiling, self.initial * self.factor**exponent)
        jitter = (rng or random).uniform(0.5, 1.0)
        return min(self.ceiling, upper * jitter)
