"""Correction queue: mismatches become corrections that are pushed upstream with retries."""

from __future__ import annotations

import asyncio
import random

import httpx
import structlog

from ledgersync.backoff import Backoff
from ledgersync.config import OutboxConfig
from ledgersync.reconcile import Mismatch
from ledgersync.store.db import Store
from ledgersync.upstream.client import LedgerClient

log = structlog.get_logger(__name__)


def enqueue(store: Store, mismatches: list[Mismatch]) -> int:
    """Queue one correction per mismatch; returns how many were new."""
    return sum(store.add_correction(m.entry_ref, m.kind.value, m.export_minor) for m in mismatches)


async def push_pending(
    store: Store, client: LedgerClient, cfg: OutboxConfig, rng: random.Random | None = None
) -> int:
    backoff = Backoff(cfg.backoff_initial_seconds, cfg.backoff_ceiling_seconds)
    sent = 0
    for row in store.pending_corrections():
        try:
            await client.post_correction(row.entry_ref, row.kind, row.amount_minor)
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code == 422:
                store.park_correction(row.id, reason="rejected by upstream (422)")
                log.warning("push_rejected", correction=row.id)
                continue
            attempts = store.bump_attempts(row.id)
            if attempts >= cfg.max_attempts:
                store.park_correction(row.id, reason=f"gave up after {attempts} attempts")
            log.warning("push_failed", correction=row.id, attempts=attempts)
            await asyncio.sleep(backoff.delay(attempts, rng))
            continue
        store.mark_sent(row.id)
        sent += 1
    return sent
