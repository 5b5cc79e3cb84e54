"""Client and models for the bank's upstream Ledger API."""
