import datetime as dt

import pytest

from ledgersync.upstream.models import LedgerEntry, parse_minor_units


@pytest.mark.parametrize(
    ("text", "minor"), [("12.30", 1230), ("-0.05", -5), ("7", 700), ("1e2", 10000)]
)
def test_parse_minor_units(text, minor):
    assert parse_minor_units(text) == minor


def test_parse_rejects_fractions_of_a_cent():
    with pytest.raises(ValueError, match="decimal places"):
        parse_minor_units("0.001")


def test_entry_from_json():
    e = LedgerEntry.from_json(
        {
            "entryReference": "E-1",
            "bookingDate": "2026-10-01",
            "amount": "-12.30",
            "currency": "EUR",
        }
    )
    assert e.booking_date == dt.date(2026, 10, 1)
    assert e.amount_minor == -1230
    assert e.description == ""
