"""Write an accounting export CSV for one booking day from the local database.

Handy for reproducing reconcile mismatches: edit a row, then run the daemon once.
Usage: python scripts/make_export.py ledger.db 2026-10-01 exports/
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import sys
from pathlib import Path

from ledgersync.reconcile import export_path
from ledgersync.store.db import Store


def main() -> None:
    db, day_text, out_dir = sys.argv[1:4]
    day = dt.date.fromisoformat(day_text)
    target = export_path(Path(out_dir), day)
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = Store.connect(db).entries_for_day(day)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["entry_ref", "amount"])
    for e in rows:
        writer.writerow([e.entry_ref, f"{e.amount_minor / 100:.2f}"])
    target.write_text(buf.getvalue(), encoding="utf-8")
    print(f"wrote {len(rows)} rows to {target}")


if __name__ == "__main__":
    main()
