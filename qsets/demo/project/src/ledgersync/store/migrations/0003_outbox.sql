CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_ref     TEXT NOT NULL,
    kind          TEXT NOT NULL,
    amount_minor  INTEGER,
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'parked')),
    attempts      INTEGER NOT NULL DEFAULT 0,
    note          TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (entry_ref, kind)
);

CREATE INDEX outbox_status ON outbox (status, id);
