import random

import pytest

from ledgersync.backoff import Backoff


def test_delay_grows_then_caps():
    b = Backoff(initial=2, ceiling=300)
    rng = random.Random(7)
    delays = [b.delay(n, rng) for n in range(1, 20)]
    assert all(d <= 300 for d in delays)
    assert max(delays[-5:]) > 100


def test_huge_attempt_does_not_overflow():
    assert Backoff(initial=2, ceiling=300).delay(5000, random.Random(1)) <= 300


def test_attempt_is_one_based():
    with pytest.raises(ValueError):
        Backoff(1, 10).delay(0)
