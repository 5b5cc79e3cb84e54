"""SQLite persistence for entries, the pull cursor and the correction outbox."""
