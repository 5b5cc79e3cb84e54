"""Async HTTP client for the upstream Ledger API (OAuth client credentials)."""

from __future__ import annotations

import os

import httpx

from ledgersync.config import UpstreamConfig
from ledgersync.upstream.models import EntryPage, LedgerEntry


class LedgerClient:
    def __init__(self, http: httpx.AsyncClient) -> None:
        self._http = http
        self._token: str | None = None

    @classmethod
    def from_config(cls, cfg: UpstreamConfig, transport: httpx.AsyncBaseTransport | None = None) -> LedgerClient:
        http = httpx.AsyncClient(
            base_url=cfg.base_url,
            timeout=cfg.timeout_seconds,
            proxy=cfg.proxy,
            transport=transport,
        )
        return cls(http)

    async def _authorize(self) -> str:
        if self._token is None:
            resp = await self._http.post(
                "/oauth/token",
                data={
                    "grant_type": "client_credentials",
                    "client_id": os.environ["LEDGERSYNC_CLIENT_ID"],
                    "client_secret": os.environ["LEDGERSYNC_CLIENT_SECRET"],
                },
            )
            resp.raise_for_status()
            self._token = resp.json()["access_token"]
        return self._token

    async def fetch_entries(self, after: str | None, limit: int) -> EntryPage:
        token = await self._authorize()
        params: dict[str, str | int] = {"limit": limit}
        if after:
            params["after"] = after
        resp = await self._http.get(
            "/entries", params=params, headers={"Authorization": f"Bearer {token}"}
        )
        resp.raise_for_status()
        body = resp.json()
        return EntryPage(
            entries=[LedgerEntry.from_json(item) for item in body["items"]],
            next_cursor=body.get("nextCursor"),
        )

    async def post_correction(self, entry_ref: str, kind: str, amount_minor: int | None) -> None:
        token = await self._authorize()
        resp = await self._http.post(
            "/corrections",
            json={"entryReference": entry_ref, "kind": kind, "amountMinor": amount_minor},
            headers={"Authorization": f"Bearer {token}"},
        )
        resp.raise_for_status()

    async def aclose(self) -> None:
        await self._http.aclose()
