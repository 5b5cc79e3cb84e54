from ledgersync.health import StatusServer
from ledgersync.metrics import Metrics


def test_healthz_stale_before_first_pull():
    server = StatusServer(Metrics(), poll_interval=60, host="127.0.0.1", port=0)
    assert server.healthz(now=1000.0)[0] == 503


def test_healthz_ok_after_recent_pull():
    metrics = Metrics()
    metrics.record_pull_ok(now=1000.0)
    server = StatusServer(metrics, poll_interval=60, host="127.0.0.1", port=0)
    assert server.healthz(now=1100.0) == (200, "ok\n")
    assert server.healthz(now=1000.0 + 181)[0] == 503


def test_metrics_render():
    metrics = Metrics()
    metrics.set_outbox_depth(3)
    text = metrics.render()
    assert "ledgersync_outbox_depth 3" in text
    assert "ledgersync_sync_lag_seconds NaN" in text


def test_unknown_path_is_404():
    server = StatusServer(Metrics(), poll_interval=60, host="127.0.0.1", port=0)
    assert server.route("/nope")[0] == 404
