from __future__ import annotations

import datetime as dt
import sqlite3

import pytest

from ledgersync.store.db import Store
from ledgersync.upstream.models import LedgerEntry


@pytest.fixture
def store() -> Store:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.row_factory = sqlite3.Row
    s = Store(conn)
    s.migrate()
    return s


@pytest.fixture
def entry_factory():
    def make(ref: str, amount_minor: int, day: dt.date = dt.date(2026, 10, 1)) -> LedgerEntry:
        return LedgerEntry(ref, day, amount_minor, "EUR", f"entry {ref}")

    return make
