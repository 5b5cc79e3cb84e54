"""Thin synchronous wrapper over sqlite3; every write is one transaction."""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ledgersync.upstream.models import LedgerEntry


@dataclass(frozen=True)
class CorrectionRow:
    id: int
    entry_ref: str
    kind: str
    amount_minor: int | None
    status: str
    attempts: int


class Store:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    @classmethod
    def connect(cls, path: Path | str, busy_timeout_ms: int = 5000) -> Store:
        conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        conn.row_factory = sqlite3.Row
        store = cls(conn)
        store.migrate()
        return store

    def migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        scripts = sorted(
            p for p in resources.files("ledgersync.store").joinpath("migrations").iterdir()
            if p.name.endswith(".sql")
        )
        for script in scripts:
            number = int(script.name.split("_", 1)[0])
            if number > version:
                self.conn.executescript(
                    f"BEGIN;\n{script.read_text()}\nPRAGMA user_version={number};\nCOMMIT;"
                )

    def get_cursor(self) -> str | None:
        row = self.conn.execute("SELECT value FROM cursor WHERE id = 1").fetchone()
        return row["value"] if row else None

    def save_entries(self, entries: list[LedgerEntry], next_cursor: str | None) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.executemany(
                "INSERT INTO entries (entry_ref, booking_date, amount_minor, currency, description)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(entry_ref) DO UPDATE SET"
                " amount_minor = excluded.amount_minor, description = excluded.description",
                [
                    (e.entry_ref, e.booking_date.isoformat(), e.amount_minor, e.currency, e.description)
                    for e in entries
                ],
            )
            if next_cursor is not None:
                self.conn.execute(
                    "INSERT INTO cursor (id, value) VALUES (1, ?)"
                    " ON CONFLICT(id) DO UPDATE SET value = excluded.value",
                    (next_cursor,),
                )

    def entries_for_day(self, day: dt.date) -> list[LedgerEntry]:
        rows = self.conn.execute(
            "SELECT * FROM entries WHERE booking_date = ? ORDER BY entry_ref", (day.isoformat(),)
        )
        return [
            LedgerEntry(r["entry_ref"], day, r["amount_minor"], r["currency"], r["description"])
            for r in rows
        ]

    def add_correction(self, entry_ref: str, kind: str, amount_minor: int | None) -> bool:
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO outbox (entry_ref, kind, amount_minor) VALUES (?, ?, ?)",
            (entry_ref, kind, amount_minor),
        )
        return cur.rowcount == 1

    def pending_corrections(self) -> list[CorrectionRow]:
        rows = self.conn.execute(
            "SELECT id, entry_ref, kind, amount_minor, status, attempts FROM outbox"
            " WHERE status = 'pending' ORDER BY id"
        )
        return [CorrectionRow(**dict(r)) for r in rows]

    def list_corrections(self, parked_only: bool = False) -> list[CorrectionRow]:
        where = "WHERE status = 'parked'" if parked_only else ""
        rows = self.conn.execute(
            f"SELECT id, entry_ref, kind, amount_minor, status, attempts FROM outbox {where} ORDER BY id"
        )
        return [CorrectionRow(**dict(r)) for r in rows]

    def bump_attempts(self, correction_id: int) -> int:
        self.conn.execute("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (correction_id,))
        return self.conn.execute(
            "SELECT attempts FROM outbox WHERE id = ?", (correction_id,)
        ).fetchone()[0]

    def park_correction(self, correction_id: int, reason: str) -> None:
        self.conn.execute(
            "UPDATE outbox SET status = 'parked', note = ? WHERE id = ?", (reason, correction_id)
        )

    def mark_sent(self, correction_id: int) -> None:
        self.conn.execute("UPDATE outbox SET status = 'sent' WHERE id = ?", (correction_id,))

    def count_pending(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM outbox WHERE status = 'pending'").fetchone()[0]

    def close(self) -> None:
        self.conn.close()
