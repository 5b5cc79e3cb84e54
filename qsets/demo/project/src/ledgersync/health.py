"""Status listener: /healthz and /metrics on a tiny asyncio HTTP server."""

from __future__ import annotations

import asyncio

from ledgersync.metrics import Metrics

_REASONS = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}


class StatusServer:
    def __init__(self, metrics: Metrics, poll_interval: float, host: str, port: int) -> None:
        self.metrics = metrics
        self.poll_interval = poll_interval
        self.host = host
        self.port = port
        self._server: asyncio.AbstractServer | None = None

    def healthz(self, now: float | None = None) -> tuple[int, str]:
        lag = self.metrics.sync_lag_seconds(now)
        if lag is None or lag > 3 * self.poll_interval:
            return 503, "stale\n"
        return 200, "ok\n"

    def route(self, path: str) -> tuple[int, str]:
        if path == "/healthz":
            return self.healthz()
        if path == "/metrics":
            return 200, self.metrics.render()
        return 404, "not here\n"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line = (await reader.readline()).decode("latin-1").split()
        status, body = self.route(request_line[1] if len(request_line) >= 2 else "/")
        payload = body.encode()
        writer.write(
            f"HTTP/1.1 {status} {_REASONS[status]}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: {len(payload)}\r\n\r\n".encode()
            + payload
        )
        await writer.drain()
        writer.close()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.host, self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
