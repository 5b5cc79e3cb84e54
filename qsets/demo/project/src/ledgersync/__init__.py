"""ledger-sync: keep a local SQLite copy of a bank ledger in step with the upstream Ledger API."""

__version__ = "0.4.0"
