"""Fill a local SQLite database with synthetic entries for manual testing.

Usage: python scripts/seed_dev_db.py ledger.db --days 10 --per-day 40
"""

from __future__ import annotations

import argparse
import datetime as dt
import random

from ledgersync.store.db import Store
from ledgersync.upstream.models import LedgerEntry


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--per-day", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    store = Store.connect(args.db)
    start = dt.date.today() - dt.timedelta(days=args.days)
    entries = [
        LedgerEntry(
            entry_ref=f"DEV-{d:03d}-{i:04d}",
            booking_date=start + dt.timedelta(days=d),
            amount_minor=rng.randint(-200_000, 200_000),
            currency="EUR",
            description=rng.choice(["card payment", "transfer", "fee", "interest"]),
        )
        for d in range(args.days)
        for i in range(args.per_day)
    ]
    store.save_entries(entries, next_cursor=f"dev-{len(entries)}")
    print(f"seeded {len(entries)} entries into {args.db}")


if __name__ == "__main__":
    main()
