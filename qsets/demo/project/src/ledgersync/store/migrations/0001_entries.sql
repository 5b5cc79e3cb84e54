CREATE TABLE entries (
    entry_ref     TEXT PRIMARY KEY,
    booking_date  TEXT NOT NULL,
    amount_minor  INTEGER NOT NULL,
    currency      TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT ''
);

CREATE INDEX entries_booking_date ON entries (booking_date);
