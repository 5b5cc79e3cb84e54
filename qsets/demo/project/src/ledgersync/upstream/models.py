"""Wire models for the Ledger API."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation


def parse_minor_units(amount: str, exponent: int = 2) -> int:
    """Parse a decimal string such as "-12.30" into integer minor units (-1230)."""
    try:
        value = Decimal(amount)
    except InvalidOperation as exc:
        raise ValueError(f"not a decimal amount: {amount!r}") from exc
    scaled = value.scaleb(exponent)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"too many decimal places: {amount!r}")
    return int(scaled)


@dataclass(frozen=True)
class LedgerEntry:
    entry_ref: str
    booking_date: dt.date
    amount_minor: int
    currency: str
    description: str

    @classmethod
    def from_json(cls, data: dict[str, str]) -> LedgerEntry:
        return cls(
            entry_ref=data["entryReference"],
            booking_date=dt.date.fromisoformat(data["bookingDate"]),
            amount_minor=parse_minor_units(data["amount"]),
            currency=data["currency"],
            description=data.get("remittanceInformation", ""),
        )


@dataclass(frozen=True)
class EntryPage:
    entries: list[LedgerEntry]
    next_cursor: str | None
