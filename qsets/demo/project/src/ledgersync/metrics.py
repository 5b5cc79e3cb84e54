"""Process-local gauges and counters rendered as plain text for /metrics."""

from __future__ import annotations

import threading
import time


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.last_pull_ok: float | None = None
        self.outbox_depth = 0
        self.pull_errors_total = 0

    def record_pull_ok(self, now: float | None = None) -> None:
        with self._lock:
            self.last_pull_ok = time.time() if now is None else now

    def record_pull_error(self) -> None:
        with self._lock:
            self.pull_errors_total += 1

    def set_outbox_depth(self, depth: int) -> None:
        with self._lock:
            self.outbox_depth = depth

    def sync_lag_seconds(self, now: float | None = None) -> float | None:
        if self.last_pull_ok is None:
            return None
        return max(0.0, (time.time() if now is None else now) - self.last_pull_ok)

    def render(self, now: float | None = None) -> str:
        lag = self.sync_lag_seconds(now)
        lines = [
            f"ledgersync_sync_lag_seconds {lag if lag is not None else 'NaN'}",
            f"ledgersync_outbox_depth {self.outbox_depth}",
            f"ledgersync_pull_errors_total {self.pull_errors_total}",
        ]
        return "\n".join(lines) + "\n"
