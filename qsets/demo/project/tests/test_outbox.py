import random

import httpx
import pytest

from ledgersync import outbox
from ledgersync.config import OutboxConfig, UpstreamConfig
from ledgersync.upstream.client import LedgerClient


def make_client(status_for_corrections: int) -> LedgerClient:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/oauth/token":
            return httpx.Response(200, json={"access_token": "t"})
        return httpx.Response(status_for_corrections)

    cfg = UpstreamConfig(base_url="https://upstream.test")
    return LedgerClient.from_config(cfg, transport=httpx.MockTransport(handler))


@pytest.fixture(autouse=True)
def creds(monkeypatch):
    monkeypatch.setenv("LEDGERSYNC_CLIENT_ID", "id")
    monkeypatch.setenv("LEDGERSYNC_CLIENT_SECRET", "secret")


async def test_sent_corrections_leave_pending(store):
    store.add_correction("A", "amount_differs", 100)
    sent = await outbox.push_pending(store, make_client(202), OutboxConfig())
    assert sent == 1
    assert store.count_pending() == 0


async def test_422_parks_without_retry(store):
    store.add_correction("A", "amount_differs", 100)
    await outbox.push_pending(store, make_client(422), OutboxConfig())
    (row,) = store.list_corrections(parked_only=True)
    assert row.attempts == 0


async def test_gives_up_after_max_attempts(store):
    store.add_correction("A", "amount_differs", 100)
    cfg = OutboxConfig(max_attempts=1, backoff_initial_seconds=0, backoff_ceiling_seconds=0)
    await outbox.push_pending(store, make_client(503), cfg, random.Random(0))
    assert [r.status for r in store.list_corrections()] == ["parked"]
