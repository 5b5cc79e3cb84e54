"""Day-by-day reconciliation of stored entries against the accounting export."""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ledgersync.upstream.models import LedgerEntry, parse_minor_units


class MismatchKind(str, Enum):
    MISSING_UPSTREAM = "missing_upstream"
    MISSING_IN_EXPORT = "missing_in_export"
    AMOUNT_DIFFERS = "amount_differs"


@dataclass(frozen=True)
class Mismatch:
    kind: MismatchKind
    entry_ref: str
    upstream_minor: int | None
    export_minor: int | None


def export_path(export_dir: Path, day: dt.date) -> Path:
    return export_dir / f"ledger-export-{day.isoformat()}.csv"


def read_export(path: Path) -> dict[str, int]:
    rows: dict[str, int] = {}
    text = path.read_text(encoding="utf-8")
    for row in csv.DictReader(text.splitlines()):
        rows[row["entry_ref"]] = parse_minor_units(row["amount"])
    return rows


def reconcile_day(
    entries: list[LedgerEntry], export: dict[str, int], tolerance: int = 0
) -> list[Mismatch]:
    upstream = {e.entry_ref: e.amount_minor for e in entries}
    mismatches: list[Mismatch] = []
    for ref in sorted(upstream.keys() | export.keys()):
        ours, theirs = upstream.get(ref), export.get(ref)
        if ours is None:
            mismatches.append(Mismatch(MismatchKind.MISSING_UPSTREAM, ref, None, theirs))
        elif theirs is None:
            mismatches.append(Mismatch(MismatchKind.MISSING_IN_EXPORT, ref, ours, None))
        elif abs(ours - theirs) > tolerance:
            mismatches.append(Mismatch(MismatchKind.AMOUNT_DIFFERS, ref, ours, theirs))
    return mismatches
