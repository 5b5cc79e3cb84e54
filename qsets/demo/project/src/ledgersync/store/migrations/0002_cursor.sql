-- Single-row table holding the upstream pagination cursor.
CREATE TABLE cursor (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    value  TEXT NOT NULL
);
