"""Main loop: pull, reconcile, push, until SIGTERM."""

from __future__ import annotations

import asyncio
import datetime as dt
import signal

import structlog

from ledgersync import outbox
from ledgersync.config import Config
from ledgersync.health import StatusServer
from ledgersync.metrics import Metrics
from ledgersync.reconcile import export_path, read_export, reconcile_day
from ledgersync.store.db import Store
from ledgersync.upstream.client import LedgerClient

log = structlog.get_logger(__name__)


class Daemon:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.metrics = Metrics()
        self.store = Store.connect(config.store.path, config.store.busy_timeout_ms)
        self.client = LedgerClient.from_config(config.upstream)
        self.status = StatusServer(
            self.metrics, config.poll_interval_seconds, config.status.host, config.status.port
        )
        self._stopping = asyncio.Event()

    async def pull_once(self) -> int:
        cursor = self.store.get_cursor()
        page = await self.client.fetch_entries(after=cursor, limit=self.config.upstream.batch_size)
        self.store.save_entries(page.entries, page.next_cursor)
        self.metrics.record_pull_ok()
        return len(page.entries)

    def reconcile_recent(self, today: dt.date) -> int:
        queued = 0
        for back in range(self.config.reconcile.lookback_days):
            day = today - dt.timedelta(days=back + 1)
            path = export_path(self.config.reconcile.export_dir, day)
            if not path.exists():
                continue
            mismatches = reconcile_day(
                self.store.entries_for_day(day),
                read_export(path),
                self.config.reconcile.tolerance_minor_units,
            )
            queued += outbox.enqueue(self.store, mismatches)
            log.info("reconciled_day", day=day.isoformat(), mismatches=len(mismatches))
        return queued

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._stopping.set)
        await self.status.start()
        try:
            while not self._stopping.is_set():
                try:
                    await self.pull_once()
                except Exception:
                    self.metrics.record_pull_error()
                    log.exception("pull_failed")
                self.reconcile_recent(dt.date.today())
                await outbox.push_pending(self.store, self.client, self.config.outbox)
                self.metrics.set_outbox_depth(self.store.count_pending())
                try:
                    await asyncio.wait_for(
                        self._stopping.wait(), timeout=self.config.poll_interval_seconds
                    )
                except asyncio.TimeoutError:
                    pass
        finally:
            await self.status.stop()
            await self.client.aclose()
            self.store.close()
